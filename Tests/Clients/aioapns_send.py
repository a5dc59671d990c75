"""Sends one APNs push with aioapns, as its README shows: a token-based (.p8) client.

aioapns does not read HTTPS_PROXY and has no host or port option, and its own proxy_host/proxy_port
path fails inside the library on Python 3.11+ (after the CONNECT it hands asyncio's TransportSocket to
create_connection, which needs a real socket). So Shade's address goes where aioapns keeps Apple's.
It trusts Shade's CA through SSL_CERT_FILE (Python's default SSL context reads it), offers no ALPN,
and sends the HTTP/2 preface straight after the handshake.
Usage: aioapns_send.py PORT DEVICE_TOKEN ALERT
"""
import asyncio
import json
import sys

from aioapns import APNs, NotificationRequest, PushType
from aioapns.connection import APNsProductionClientProtocol

from fake_credentials import apns_p8_key


async def main(port: int, token: str, alert: str) -> None:
    APNsProductionClientProtocol.APNS_SERVER = "localhost"
    APNsProductionClientProtocol.APNS_PORT = port
    apns = APNs(key=apns_p8_key(), key_id="ABC123DEFG", team_id="DEF123GHIJ", topic="com.example.app",
                use_sandbox=False)
    request = NotificationRequest(device_token=token, message={"aps": {"alert": alert, "badge": 1}},
                                  push_type=PushType.ALERT)
    result = await apns.send_notification(request)
    print(json.dumps({"successful": result.is_successful, "status": result.status,
                      "apns_id": result.notification_id, "description": result.description}))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2], sys.argv[3]))
