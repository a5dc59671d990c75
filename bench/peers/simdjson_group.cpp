// Peer for `shade state`: simdjson on-demand over the recording (iterate_many: one document a
// line), grouping pushes by payload.data.conversationId with a count per conversation. It does a
// fraction of Shade's work: no shapes, platforms, replacement or output.
#include <simdjson.h>
#include <cstdio>
#include <string>
#include <string_view>
#include <unordered_map>

int main(int argc, char **argv) {
  if (argc < 2) { std::fprintf(stderr, "usage: simdjson-group FILE.jsonl\n"); return 2; }
  simdjson::padded_string json;
  if (simdjson::padded_string::load(argv[1]).get(json)) { std::perror(argv[1]); return 2; }
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document_stream stream;
  if (parser.iterate_many(json, 1 << 20).get(stream)) { std::fprintf(stderr, "cannot parse\n"); return 1; }
  std::unordered_map<std::string, size_t> groups;
  size_t plain = 0, bad = 0;
  for (auto doc : stream) {
    simdjson::ondemand::object root;
    if (doc.get_object().get(root)) { bad++; continue; }
    simdjson::ondemand::object payload;
    if (root.find_field_unordered("payload").get_object().get(payload)) payload = root;  // a bare payload line
    std::string_view room;
    if (payload.find_field_unordered("data")["conversationId"].get_string().get(room)) { plain++; continue; }
    groups[std::string(room)]++;
  }
  std::printf("%zu conversations, %zu other pushes, %zu unreadable\n", groups.size(), plain, bad);
  return 0;
}
