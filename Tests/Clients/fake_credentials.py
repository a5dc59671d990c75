"""Dummy credentials in the exact forms Apple and Google hand out, with freshly made keys that no
service knows: what a developer points at Shade instead of real ones."""
import json

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa


def apns_p8_key() -> str:
    """An ES256 key in the form of Apple's AuthKey_XXXXXXXXXX.p8 file."""
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def write_service_account(path: str, project: str = "shade-demo") -> None:
    """The JSON a Firebase console download holds (token_uri is Google's real one)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    account = {
        "type": "service_account", "project_id": project, "private_key_id": "0123456789abcdef",
        "private_key": pem, "client_email": f"firebase-adminsdk@{project}.iam.gserviceaccount.com",
        "client_id": "1234567890", "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": "https://oauth2.googleapis.com/token",
    }
    with open(path, "w") as file:
        json.dump(account, file)
