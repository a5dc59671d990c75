// How the mimicked services answer beyond their payload rules: tokens they call gone, credentials
// they insist on, the Web Push subscription Shade receives for.

public struct ServiceOptions {
    /// `--unregistered TOKEN`: APNs tokens, FCM and Expo tokens, Web Push subscription ids answered as gone.
    public var unregistered: Set<String> = []
    /// `--fcm-quota N`: FCM v1 messages a minute before FCM's 429 QUOTA_EXCEEDED; none when nil.
    public var fcmQuota: FCMQuota?
    /// `--strict-auth`: refuse what the real service refuses for missing or bad credentials.
    public var strictAuth = false
    /// The subscription `GET /webpush/subscription` hands out; nil when its keys could not be had
    /// (the reason is in `webPushUnavailable`).
    public var webPush: WebPushSubscription?
    public var webPushUnavailable: String?
    /// Wall time for credential lifetimes (VAPID `exp`, provider token `iat`): the real clock, as
    /// the signer's is, even where a test fixes the time pushes are stamped with.
    public var credentialClock: any Clock = WallClock()

    public init() {}
}
