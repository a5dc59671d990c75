// Sends one APNs push with Node's built-in http2 module, as Apple's provider API docs and node-apn do:
// a TLS connection with ALPN h2 and SNI api.push.apple.com. Node's http2 does not read HTTPS_PROXY, so
// it connects to Shade's port with the real host name as servername; NODE_EXTRA_CA_CERTS trusts Shade's CA.
// Usage: node node_http2_apns.js PORT DEVICE_TOKEN ALERT
const http2 = require("http2");
const [port, token, alert] = process.argv.slice(2);
const session = http2.connect(`https://127.0.0.1:${port}`, { servername: "api.push.apple.com" });
session.on("error", (error) => { console.error(error.message); process.exit(1); });
const request = session.request({
  ":method": "POST", ":path": `/3/device/${token}`, ":authority": "api.push.apple.com",
  "apns-topic": "com.example.app", "apns-push-type": "alert", "authorization": "bearer dummy",
});
let status, apnsId, body = "";
request.on("response", (headers) => { status = headers[":status"]; apnsId = headers["apns-id"]; });
request.on("data", (chunk) => { body += chunk; });
request.on("end", () => {
  console.log(JSON.stringify({ status, apns_id: apnsId, body, alpn: session.alpnProtocol }));
  session.close();
});
request.end(JSON.stringify({ aps: { alert } }));
