import Testing
@testable import ShadeCore

/// DESIGN.md "`shade state` JSON": the contract scripts and CI read.
struct StateJSONTests {
    static let session = [
        #"{"at":"2026-11-30T10:15:00.800Z","payload":{"userId":"user_kian","title":"@ali","body":"Is the bike still available?","data":{"conversationId":"room_42","senderName":"@ali","senderId":"user_ali","senderAvatarUrl":"https://cdn.example.com/avatars/ali.jpg"}}}"#,
        #"{"to":"fcm-token","restricted_package_name":"demo","notification":{"title":"Order shipped","body":"Your order is on the way"}}"#,
        #"{"aps":{"alert":"hi"},}"#,
    ].joined(separator: "\n") + "\n"

    @Test func goldenTextOfASmallAndroidSession() {
        var intake = Intake()
        var android = Center(profile: Profile(platform: .android))
        for outcome in intake.lines(Array(Self.session.utf8), source: "session.jsonl") { android.apply(outcome) }
        #expect(StateJSON.text([android.state]) == #"""
            {
              "platform": "android",
              "received": 3,
              "shown": 2,
              "silent": 0,
              "calls": 0,
              "rejected": 1,
              "elsewhere": 0,
              "dropped": 0,
              "badge": 0,
              "sections": [
                {
                  "name": "Conversations",
                  "items": [
                    {
                      "kind": "conversation",
                      "key": "room_42",
                      "app": "app",
                      "title": "@ali",
                      "subtitle": null,
                      "isGroup": false,
                      "avatar": {
                        "initials": "A",
                        "imageUrl": "https://cdn.example.com/avatars/ali.jpg",
                        "color": 1
                      },
                      "lines": [
                        {
                          "sender": "@ali",
                          "senderId": "user_ali",
                          "text": "Is the bike still available?"
                        }
                      ],
                      "total": 1,
                      "children": null,
                      "level": null,
                      "at": "2026-11-30T10:15:00.800Z",
                      "image": null,
                      "category": null,
                      "mutableContent": false
                    }
                  ]
                },
                {
                  "name": "Notifications",
                  "items": [
                    {
                      "kind": "plain",
                      "key": "n2",
                      "app": "demo",
                      "title": "Order shipped",
                      "subtitle": null,
                      "isGroup": null,
                      "avatar": null,
                      "lines": [
                        {
                          "sender": null,
                          "senderId": null,
                          "text": "Your order is on the way"
                        }
                      ],
                      "total": 1,
                      "children": null,
                      "level": null,
                      "at": null,
                      "image": null,
                      "category": null,
                      "mutableContent": false
                    }
                  ]
                }
              ],
              "errors": [
                {
                  "source": "session.jsonl:3",
                  "reason": "invalid JSON (V8) at line 3, column 22: trailing comma before '}'"
                }
              ]
            }

            """#)
    }

    @Test func platformAllWrapsTheThreeProfilesInOrderAndEmptySectionsAreLeftOut() {
        let push = #"{"aps":{"alert":{"title":"Hey!","body":"You have a new push"},"badge":2},"Simulator Target Bundle":"chat.rocket.ios"}"#
        #expect(StateJSON.text(centers(push, everyPlatform).map(\.state)) == #"""
            {
              "profiles": [
                {
                  "platform": "android",
                  "received": 1,
                  "shown": 0,
                  "silent": 0,
                  "calls": 0,
                  "rejected": 0,
                  "elsewhere": 1,
                  "dropped": 0,
                  "badge": 0,
                  "sections": [],
                  "errors": []
                },
                {
                  "platform": "ios",
                  "received": 1,
                  "shown": 1,
                  "silent": 0,
                  "calls": 0,
                  "rejected": 0,
                  "elsewhere": 0,
                  "dropped": 0,
                  "badge": 2,
                  "sections": [
                    {
                      "name": "Notification Center",
                      "items": [
                        {
                          "kind": "plain",
                          "key": "chat.rocket.ios",
                          "app": "chat.rocket.ios",
                          "title": "Hey!",
                          "subtitle": null,
                          "isGroup": null,
                          "avatar": null,
                          "lines": [
                            {
                              "sender": null,
                              "senderId": null,
                              "text": "You have a new push"
                            }
                          ],
                          "total": 1,
                          "children": null,
                          "level": null,
                          "at": null,
                          "image": null,
                          "category": null,
                          "mutableContent": false
                        }
                      ]
                    }
                  ],
                  "errors": []
                },
                {
                  "platform": "web",
                  "received": 1,
                  "shown": 0,
                  "silent": 0,
                  "calls": 0,
                  "rejected": 0,
                  "elsewhere": 1,
                  "dropped": 0,
                  "badge": 0,
                  "sections": [],
                  "errors": []
                }
              ]
            }

            """#)
    }

    @Test func keyOrderIsFixed() throws {
        let state = center(Self.session).state
        let root = try #require(StateJSON.value(state).object)
        #expect(root.keys == ["platform", "received", "shown", "silent", "calls", "rejected", "elsewhere", "dropped", "badge", "sections", "errors"])
        let section = try #require(root["sections"]?.array?.first?.object)
        #expect(section.keys == ["name", "items"])
        let item = try #require(section["items"]?.array?.first?.object)
        #expect(item.keys == ["kind", "key", "app", "title", "subtitle", "isGroup", "avatar", "lines", "total", "children", "level", "at",
                              "image", "category", "mutableContent"])
        #expect(item["avatar"]?.object?.keys == ["initials", "imageUrl", "color"])
        #expect(item["lines"]?.array?.first?.object?.keys == ["sender", "senderId", "text"])
        #expect(root["errors"]?.array?.first?.object?.keys == ["source", "reason"])
    }

    @Test func aBundleListsItsChildren() throws {
        let session = (1...4).map { #"{"to":"t","notification":{"title":"N\#($0)","body":"b"}}"# }.joined(separator: "\n")
        let item = try #require(StateJSON.value(center(session).state)["sections"]?.array?.first?["items"]?.array?.first)
        #expect(JSONWriter.compact(item) == #"{"kind":"bundle","key":"app","app":"app","title":"app","subtitle":null,"isGroup":null,"avatar":null,"lines":[],"total":4,"children":[{"kind":"plain","key":"n4","app":"app","title":"N4","subtitle":null,"isGroup":null,"avatar":null,"lines":[{"sender":null,"senderId":null,"text":"b"}],"total":1,"children":null,"level":null,"at":null,"image":null,"category":null,"mutableContent":false},{"kind":"plain","key":"n3","app":"app","title":"N3","subtitle":null,"isGroup":null,"avatar":null,"lines":[{"sender":null,"senderId":null,"text":"b"}],"total":1,"children":null,"level":null,"at":null,"image":null,"category":null,"mutableContent":false},{"kind":"plain","key":"n2","app":"app","title":"N2","subtitle":null,"isGroup":null,"avatar":null,"lines":[{"sender":null,"senderId":null,"text":"b"}],"total":1,"children":null,"level":null,"at":null,"image":null,"category":null,"mutableContent":false},{"kind":"plain","key":"n1","app":"app","title":"N1","subtitle":null,"isGroup":null,"avatar":null,"lines":[{"sender":null,"senderId":null,"text":"b"}],"total":1,"children":null,"level":null,"at":null,"image":null,"category":null,"mutableContent":false}],"level":null,"at":null,"image":null,"category":null,"mutableContent":false}"#)
    }

    @Test func sectionNamesPerPlatform() {
        let session = [
            sendToUser(title: "@ali", body: "hi", data: #""conversationId":"room_42""#),
            #"{"userId":"u","title":"Plain","body":"p"}"#,
            #"{"headers":{"apns-push-type":"voip"},"payload":{"aps":{},"callerName":"Alice"}}"#,
        ].joined(separator: "\n")
        let profiles = everyPlatform + [Profile(platform: .android, osVersion: Version(10))]
        let names = centers(session, profiles).map { $0.state.sections.map(\.name) }
        #expect(names == [["Conversations", "Notifications"], ["Notification Center", "Calls"], ["Notifications"], ["Notifications"]])
    }

    @Test func theTextOfOneProfileIsNotWrapped() {
        let text = StateJSON.text([Center(profile: Profile(platform: .web)).state])
        #expect(text == """
            {
              "platform": "web",
              "received": 0,
              "shown": 0,
              "silent": 0,
              "calls": 0,
              "rejected": 0,
              "elsewhere": 0,
              "dropped": 0,
              "badge": 0,
              "sections": [],
              "errors": []
            }

            """)
    }

    @Test func payloadTextIsEscapedInTheJSON() throws {
        let push = #"{"to":"t","notification":{"title":"Tab\there \"quoted\"","body":"\u001b[31mred\u001b[0m"}}"#
        let json = StateJSON.value(center(push).state)
        let compact = JSONWriter.compact(json)
        #expect(compact.contains(#""title":"Tab\there \"quoted\"""#))
        #expect(compact.contains(#""text":"\u001b[31mred\u001b[0m""#))
        #expect(!compact.utf8.contains(0x1B))
        #expect(try JSONParser.parse(compact) == json)
    }

    /// DESIGN "State JSON additions (wave 2)": `image`, `category` and `mutableContent` on every item
    /// (the newest notification's), `dropped` among the counters. Two pushes for one app wait at APNs
    /// while the device is offline (O3 keeps the newer) and arrive when it is back, a minute later.
    @Test func stateJSONAdditionsAreWrittenWithTheirValues() {
        let session = [
            #"{"aps":{"alert":{"title":"Price drop","body":"Was 240 €"},"mutable-content":1,"category":"OFFER"},"image":"https://cdn.example.com/a.jpg"}"#,
            #"{"aps":{"alert":{"title":"Price drop","body":"Now 180 €"},"mutable-content":1,"category":"OFFER"},"image":"https://cdn.example.com/b.jpg"}"#,
        ].joined(separator: "\n")
        var intake = Intake()
        var ios = Center(profile: Profile(platform: .ios))
        ios.goOffline(at: 0)
        for (index, outcome) in intake.lines(Array(session.utf8), source: "s.jsonl").enumerated() { ios.apply(outcome, at: Int64(index) * 250) }
        ios.comeOnline(at: 60_000)
        #expect(StateJSON.text([ios.state]) == #"""
            {
              "platform": "ios",
              "received": 2,
              "shown": 1,
              "silent": 0,
              "calls": 0,
              "rejected": 0,
              "elsewhere": 0,
              "dropped": 1,
              "badge": 0,
              "sections": [
                {
                  "name": "Notification Center",
                  "items": [
                    {
                      "kind": "plain",
                      "key": "app",
                      "app": "app",
                      "title": "Price drop",
                      "subtitle": null,
                      "isGroup": null,
                      "avatar": null,
                      "lines": [
                        {
                          "sender": null,
                          "senderId": null,
                          "text": "Now 180 €"
                        }
                      ],
                      "total": 1,
                      "children": null,
                      "level": null,
                      "at": "1970-01-01T00:01:00.000Z",
                      "image": "https://cdn.example.com/b.jpg",
                      "category": "OFFER",
                      "mutableContent": true
                    }
                  ]
                }
              ],
              "errors": []
            }

            """#)
    }
}
