#!/usr/bin/env python3
"""Writes the seed corpus Fuzz/Corpus/ctap2 (committed; rerun to regenerate).

Each input is one CTAP2 request: the command byte, then canonical CBOR
(CTAP 2.1 §8), encoded by the small writer below (no CBOR library needed).
FuzzCTAP2's store holds example.com's credential with id 16 x 0x01.
"""
import hashlib, os

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Corpus", "ctap2")
os.makedirs(out, exist_ok=True)

def head(major, n):
    if n < 24: return bytes([major << 5 | n])
    for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if n < 1 << (8 * size): return bytes([major << 5 | info]) + n.to_bytes(size, "big")

def cbor(v):
    if isinstance(v, bool): return b"\xf5" if v else b"\xf4"
    if isinstance(v, int): return head(0, v) if v >= 0 else head(1, -1 - v)
    if isinstance(v, bytes): return head(2, len(v)) + v
    if isinstance(v, str): return head(3, len(v.encode())) + v.encode()
    if isinstance(v, list): return head(4, len(v)) + b"".join(cbor(e) for e in v)
    if isinstance(v, dict):
        items = sorted((cbor(k), cbor(x)) for k, x in v.items())
        items.sort(key=lambda kv: (len(kv[0]), kv[0]))
        return head(5, len(items)) + b"".join(k + x for k, x in items)
    raise TypeError(v)

cdh = hashlib.sha256(b"client data").digest()
cred = {"id": bytes([1] * 16), "type": "public-key"}
# The P-256 generator: a valid point for a platform's key agreement key.
G = {1: 2, 3: -25, -1: 1,
     -2: bytes.fromhex("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"),
     -3: bytes.fromhex("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")}
make = {1: cdh, 2: {"id": "example.com", "name": "Example"}, 3: {"id": b"\x01\x02\x03", "name": "alice", "displayName": "Alice"},
        4: [{"alg": -7, "type": "public-key"}, {"alg": -8, "type": "public-key"}]}
requests = {
    "getInfo": b"\x04",
    "makeCredential": b"\x01" + cbor(make),
    "makeCredential-rk-ext": b"\x01" + cbor({**make, 5: [cred], 6: {"credProtect": 2, "hmac-secret": True}, 7: {"rk": True, "uv": True}}),
    "makeCredential-token": b"\x01" + cbor({**make, 8: bytes(32), 9: 2}),
    "getAssertion": b"\x02" + cbor({1: "example.com", 2: cdh, 3: [cred]}),
    "getAssertion-discoverable": b"\x02" + cbor({1: "example.com", 2: cdh, 5: {"up": True, "uv": True}}),
    "getAssertion-hmac-secret": b"\x02" + cbor({1: "example.com", 2: cdh, 3: [cred],
                                                4: {"hmac-secret": {1: G, 2: bytes(32), 3: bytes(16), 4: 1}}}),
    "clientPIN-getKeyAgreement": b"\x06" + cbor({1: 2, 2: 2}),
    "clientPIN-token": b"\x06" + cbor({1: 2, 2: 6, 3: G, 9: 3, 10: "example.com"}),
    "clientPIN-getUVRetries": b"\x06" + cbor({1: 1, 2: 7}),
    "credentialManagement-metadata": b"\x0a" + cbor({1: 1, 3: 1, 4: bytes(16)}),
    "credentialManagement-enumerate": b"\x0a" + cbor({1: 4, 2: {1: hashlib.sha256(b"example.com").digest()}, 3: 2, 4: bytes(32)}),
    "getNextAssertion": b"\x08",
    "selection": b"\x0b",
}
for name, body in requests.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(body)
