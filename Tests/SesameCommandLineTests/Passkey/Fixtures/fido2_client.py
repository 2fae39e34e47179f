"""python-fido2 (PyPI `fido2` 2.x) driving `sesame passkey serve --hid-socket`.

An independent client and relying party judge the authenticator: python-fido2's
Fido2Client speaks CTAPHID and CTAP2 over the socket's 64-byte reports, and its
Fido2Server verifies what comes back. Prints one JSON object of findings.

Usage: fido2_client.py SOCKET SCENARIO [STATE-FILE]
  register      register a discoverable credential with PRF (hmac-secret), verify it and
                an assertion with an allowList; store the credential data in STATE-FILE
  discoverable  sign in with no allowList, using STATE-FILE's credential to verify
  prf           the PRF output for two salts, twice each (same salt, same output)
  exclude       a second registration that names STATE-FILE's credential in excludeList
  cancel        a registration cancelled (CTAPHID CANCEL) after a second
"""

import base64
import json
import socket
import sys
import threading

from fido2.client import ClientError, DefaultClientDataCollector, Fido2Client, UserInteraction
from fido2.hid import CtapHidDevice
from fido2.hid.base import CtapHidConnection, HidDescriptor
from fido2.server import Fido2Server
from fido2.webauthn import AttestedCredentialData, PublicKeyCredentialUserEntity

ORIGIN = "https://example.com"
RP = {"id": "example.com", "name": "Example"}
USER = PublicKeyCredentialUserEntity(id=b"user-ada-0001", name="ada@example.com", display_name="Ada")


class SocketConnection(CtapHidConnection):
    """CTAPHID reports over a Unix stream socket: exactly 64 bytes each way."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)

    def write_packet(self, data):
        assert len(data) == 64, len(data)
        self.sock.sendall(data)

    def read_packet(self):
        data = b""
        while len(data) < 64:
            chunk = self.sock.recv(64 - len(data))
            if not chunk:
                raise OSError("the authenticator closed the socket")
            data += chunk
        return data

    def close(self):
        self.sock.close()


class Interaction(UserInteraction):
    def prompt_up(self):
        print("touch", file=sys.stderr)

    def request_pin(self, permissions, rp_id):
        return None  # Sesame has no PIN of its own

    def request_uv(self, permissions, rp_id):
        return True


def device(path):
    descriptor = HidDescriptor(path, 0x1209, 0x5E5A, 64, 64, "Sesame passkey", None)
    return CtapHidDevice(descriptor, SocketConnection(path))


def client(dev):
    return Fido2Client(dev, client_data_collector=DefaultClientDataCollector(ORIGIN), user_interaction=Interaction())


def b64(data):
    return base64.urlsafe_b64encode(bytes(data)).decode().rstrip("=")


def field(mapping, *names):
    """A value from python-fido2's extension outputs, as bytes, whichever form it takes."""
    value = mapping
    for name in names:
        value = value[name] if isinstance(value, dict) or hasattr(value, "__getitem__") else getattr(value, name)
    if isinstance(value, str):
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    return bytes(value)


def register(dev, server, exclude=(), event=None):
    options, state = server.register_begin(USER, credentials=list(exclude), resident_key_requirement="required",
                                           user_verification="required")
    public_key = dict(options["publicKey"])
    public_key["extensions"] = {"prf": {}}
    result = client(dev).make_credential(public_key, event=event)
    auth_data = server.register_complete(state, result)
    return result, auth_data


def assert_with(dev, server, credentials, allow=True, salts=None):
    options, state = server.authenticate_begin(credentials if allow else None, user_verification="required")
    public_key = dict(options["publicKey"])
    if salts:
        public_key["extensions"] = {"prf": {"eval": dict(salts)}}
    selection = client(dev).get_assertion(public_key)
    response = selection.get_response(0)
    server.authenticate_complete(state, credentials, response)
    return selection, response


def main():
    path, scenario = sys.argv[1], sys.argv[2]
    state_file = sys.argv[3] if len(sys.argv) > 3 else None
    server = Fido2Server(RP, attestation="none")
    dev = device(path)
    out = {"capabilities": dev.capabilities, "version": list(dev.device_version)}
    try:
        if scenario == "register":
            result, auth_data = register(dev, server)
            credential = auth_data.credential_data
            out["registered"] = True
            out["flags"] = int(auth_data.flags)
            out["counter"] = auth_data.counter
            out["credential_id"] = b64(credential.credential_id)
            out["algorithm"] = credential.public_key[3]
            out["prf_enabled"] = bool(result.client_extension_results.get("prf", {}).get("enabled"))
            _, response = assert_with(dev, server, [credential])
            out["asserted"] = True
            out["assertion_counter"] = response.response.authenticator_data.counter
            with open(state_file, "wb") as f:
                f.write(bytes(credential))
        elif scenario in ("discoverable", "prf", "exclude"):
            with open(state_file, "rb") as f:
                credential = AttestedCredentialData(f.read())
            if scenario == "discoverable":
                selection, response = assert_with(dev, server, [credential], allow=False)
                out["asserted"] = True
                out["credential_id"] = b64(response.raw_id)
                out["user_handle"] = b64(response.response.user_handle or b"")
                out["count"] = len(selection.get_assertions())
            elif scenario == "prf":
                outputs = []
                for salt in (b"a" * 32, b"b" * 32, b"a" * 32):
                    _, response = assert_with(dev, server, [credential], salts={"first": salt})
                    outputs.append(b64(field(response.client_extension_results, "prf", "results", "first")))
                out["outputs"] = outputs
            else:
                try:
                    register(dev, server, exclude=[credential])
                    out["registered"] = True
                except ClientError as error:
                    out["registered"] = False
                    out["error"] = str(error.code)
        elif scenario == "cancel":
            event = threading.Event()
            threading.Timer(1.0, event.set).start()
            try:
                register(dev, server, event=event)
                out["registered"] = True
            except Exception as error:  # noqa: BLE001 - the kind of failure is the finding
                out["registered"] = False
                out["error"] = type(error).__name__ + ": " + str(error)
        else:
            raise SystemExit("unknown scenario " + scenario)
    finally:
        dev.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
