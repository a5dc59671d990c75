@preconcurrency import Glibc
import ShadeCore
import ShadeIO

/// `shade subscription`: the Web Push subscription a running Shade receives for, without one running.
enum SubscriptionCommand {
    static let command = Command(
        name: "subscription",
        summary: "print the Web Push subscription Shade receives for, as a browser gives it",
        usage: "shade subscription [--port N]",
        help: """
        Prints the PushSubscription a page would get from pushManager.subscribe() and send to its server:
        {"endpoint": "http://127.0.0.1:PORT/webpush/ID", "expirationTime": null, "keys": {"p256dh": …, "auth": …}}.
        Give it to your Web Push library (pywebpush, web-push, …) unchanged: Shade decrypts what it sends
        (aes128gcm or aesgcm), checks its VAPID signature and shows the notification on the web profile.
        A running `shade listen` answers the same at GET /webpush/subscription.

        The keys are made once and kept in $XDG_DATA_HOME/shade/webpush/subscription.json (default
        ~/.local/share/shade/webpush/, mode 0600): the subscription stays the same across runs. Remove
        the file for a new one.

        Options:
          --port N                the port `shade listen` uses (default \(ListenCommand.defaultPort))

        Example:
          shade subscription > subscription.json
          python3 -c 'import json, pywebpush; pywebpush.webpush(json.load(open("subscription.json")), "Hello",
              vapid_private_key="vapid.pem", vapid_claims={"sub": "mailto:dev@example.com"})'
        """,
        valueOptions: ["--port"],
        flags: [],
        run: run)

    static func run(_ parsed: ParsedArguments) throws(UsageError) -> Int32 {
        guard parsed.operands.isEmpty else { throw UsageError("`shade subscription` takes no files (\(parsed.operands[0]))") }
        let port = try ListenCommand.runningPort(parsed, for: "shade subscription")
        let subscription: WebPushSubscription
        do { subscription = try WebPushSubscription.loadOrCreate(directory: DataDirectory.webPush()) } catch {
            Console.error("shade: \(error.description)")
            return 1
        }
        print(subscription.text(origin: "http://127.0.0.1:\(port)"))
        return 0
    }
}
