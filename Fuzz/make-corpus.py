#!/usr/bin/env python3
"""Writes the seed corpus Fuzz/Corpus/import (committed; rerun to regenerate).

Byte 0 of each input selects FuzzImport's mode: 0x00 = a whole export file,
0x01 = a decrypted payload the harness seals itself (see FuzzImport.swift).
The whole files use the harness's passphrase and scrypt N=2^10, r=8, p=1.
"""
import hashlib, os, struct
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Corpus", "import")
os.makedirs(out, exist_ok=True)

def field(b):
    b = b.encode() if isinstance(b, str) else b
    return struct.pack(">I", len(b)) + b

def entry(service, account, value, label=None, accessibility="whenUnlocked", ac="or:", created=1.7e9, modified=1.7e9):
    e = field(service) + field(account)
    e += (b"\x01" + field(label)) if label is not None else b"\x00"
    e += field(accessibility) + field(ac) + struct.pack(">d", created) + struct.pack(">d", modified) + field(value)
    return e

def payload(entries):
    return struct.pack(">I", len(entries)) + b"".join(entries)

salt = bytes([7] * 16)
header = b"SESAMEEX" + bytes([1, 10]) + struct.pack(">II", 8, 1) + salt
key = hashlib.scrypt(b"fuzz passphrase", salt=salt, n=1 << 10, r=8, p=1, dklen=32)

def export_file(plain):
    nonce = bytes(12)
    body = header + nonce + AESGCM(key).encrypt(nonce, plain, header)
    return body + hashlib.sha256(body).digest()

payloads = {
    "empty": payload([]),
    "one": payload([entry("bank", "api-token", b"secret")]),
    "label-and-ac": payload([entry("mail", "me@example.org", b"hunter2", label="Mail", accessibility="afterFirstUnlock",
                                   ac="or:biometryCurrentSet,devicePasscode")]),
    "and-app-password": payload([entry("vpn", "key", b"\x00\xff" * 8, ac="and:applicationPassword,biometryAny")]),
    "unknown-accessibility": payload([entry("x", "y", b"z", accessibility="always"), entry("x", "z", b"v")]),
    "bad-ac": payload([entry("x", "y", b"z", ac="xor:userPresence")]),
    "duplicate": payload([entry("d", "same", b"1"), entry("d", "same", b"2")]),
    "nan-dates": payload([entry("t", "nan", b"v", created=float("nan"), modified=float("inf"))]),
    "truncated": payload([entry("bank", "api-token", b"secret")])[:-3],
    "huge-count": struct.pack(">I", 0xFFFFFFFF) + entry("a", "b", b"c"),
    "huge-field": struct.pack(">I", 1) + struct.pack(">I", 0xFFFFFFF0) + b"abc",
}
for name, data in payloads.items():
    open(os.path.join(out, "payload-" + name), "wb").write(b"\x01" + data)

valid = export_file(payloads["one"])
files = {
    "valid": valid,
    "valid-two": export_file(payload([entry("a", "1", b"x"), entry("b", "2", b"y", label="L")])),
    "bad-checksum": valid[:-1] + bytes([valid[-1] ^ 1]),
    "bad-version": valid[:8] + b"\x02" + valid[9:],
    "magic-only": b"SESAMEEX",
    "not-export": b"SQLite format 3\x00",
    "header-only": header,
}
# A file whose checksum is right but whose scrypt cost is hostile (N=2^24).
hostile = b"SESAMEEX" + bytes([1, 24]) + struct.pack(">II", 64, 16) + salt + bytes(12) + bytes(32)
# Not in the corpus: it makes scrypt ask for 128 GiB (a known issue, see
# README.md), which libFuzzer reports at once. Kept in KnownIssues/.
known = os.path.join(os.path.dirname(out), "..", "KnownIssues")
os.makedirs(known, exist_ok=True)
open(os.path.join(known, "import-hostile-scrypt-cost"), "wb").write(b"\x00" + hostile + hashlib.sha256(hostile).digest())
for name, data in files.items():
    open(os.path.join(out, "file-" + name), "wb").write(b"\x00" + data)
print(f"{len(payloads) + len(files)} seeds in {out}")

# FuzzRecord: byte 0 = column, byte 1 = SQLite type (0 blob, 1 text, 2 integer,
# 3 real, 4 null), byte 2 = mode (0 replace, 1 XOR over the current blob), then bytes.
record = os.path.join(os.path.dirname(out), "record")
os.makedirs(record, exist_ok=True)
columns = ["service", "account", "label", "accessibility", "access_control", "created", "modified",
           "wrappings", "commitment", "ciphertext", "mac", "id"]
for index, name in enumerate(columns):
    open(os.path.join(record, f"{name}-flip-bit"), "wb").write(bytes([index, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]))
    open(os.path.join(record, f"{name}-text"), "wb").write(bytes([index, 1, 0]) + b"neighbour")
    open(os.path.join(record, f"{name}-null"), "wb").write(bytes([index, 4, 0]))
open(os.path.join(record, "wrappings-short"), "wb").write(bytes([7, 0, 0, 0, 0, 0, 1]))
open(os.path.join(record, "wrappings-huge-count"), "wb").write(bytes([7, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]))
# Known issue (see README.md): a TEXT in created/modified aborts the process.
for name in ("created", "modified"):
    os.replace(os.path.join(record, f"{name}-text"), os.path.join(known, f"record-{name}-as-text"))
print(f"{3 * len(columns)} seeds in {record}")
