"""Send to Shade with Expo's Python server SDK, as a backend does: PushClient(host=…).

Usage: expo_send.py BASE_URL TOKEN…   Prints one JSON line per ticket, then one per receipt.
"""
import json
import sys

from exponent_server_sdk import DeviceNotRegisteredError, PushClient, PushMessage, PushTicketError

client = PushClient(host=sys.argv[1])
messages = [PushMessage(to=token, title="Order shipped", body="Your order is on the way", data={"order": "7"})
            for token in sys.argv[2:]]
tickets = client.publish_multiple(messages)
for ticket in tickets:
    try:
        ticket.validate_response()
        print(json.dumps({"ticket": ticket.push_message.to, "status": ticket.status}))
    except DeviceNotRegisteredError as error:
        print(json.dumps({"ticket": ticket.push_message.to, "status": ticket.status, "error": type(error).__name__,
                          "expoPushToken": error.push_response.details.get("expoPushToken")}))
    except PushTicketError as error:
        print(json.dumps({"ticket": ticket.push_message.to, "status": ticket.status, "error": type(error).__name__}))

receipts = client.check_receipts([ticket for ticket in tickets if ticket.is_success()])
for receipt in receipts:
    receipt.validate_response()
    print(json.dumps({"receipt": receipt.id in [t.id for t in tickets], "status": receipt.status}))
