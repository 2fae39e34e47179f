#!/usr/bin/env python3
"""Writes Fuzz/Corpus/ctaphid/: byte 0 picks FuzzCTAPHID's clock (0: timers
never fire, 1: they fire soon), then 64-byte CTAPHID reports as a host sends
them. The server allocates channels from 1 up, so channel 1 is the first
INIT's answer."""
import os
import struct

BROADCAST = 0xFFFFFFFF
NONCE = bytes(range(1, 9))


def packets(cid, cmd, payload):
    """A message's reports: an initialization packet, then continuations."""
    out = struct.pack(">IBH", cid, cmd, len(payload)) + payload[:57]
    reports = [out.ljust(64, b"\0")]
    rest, seq = payload[57:], 0
    while rest:
        reports.append((struct.pack(">IB", cid, seq) + rest[:59]).ljust(64, b"\0"))
        rest, seq = rest[59:], seq + 1
    return reports


INIT = packets(BROADCAST, 0x86, NONCE)
SEEDS = {
    "init": (0, INIT),
    "init-twice-resync": (0, INIT + INIT + packets(1, 0x86, NONCE)),
    "ping-continuation": (0, INIT + packets(1, 0x81, bytes(range(200)))),
    "cbor-get-info": (0, INIT + packets(1, 0x90, b"\x04")),
    "cbor-make-credential-like": (0, INIT + packets(1, 0x90, b"\x01\xa4\x01\x58\x20" + bytes(32) + b"\x02\xa1\x62id\x64test" + bytes(90))),
    "cbor-then-cancel": (0, INIT + packets(1, 0x90, b"\x04") + packets(1, 0x91, b"")),
    "msg-u2f-version": (0, INIT + packets(1, 0x83, b"\x00\x03\x00\x00\x00\x00\x00")),
    "wink": (0, INIT + packets(1, 0x88, b"")),
    "busy-second-channel": (0, INIT + INIT + packets(1, 0x81, bytes(100))[:1] + packets(2, 0x81, b"x")),
    "timeout-mid-message": (1, INIT + packets(1, 0x81, bytes(300))[:2]),
    "keepalive-pending": (1, INIT + packets(1, 0x90, b"\x04")),
}

directory = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Corpus", "ctaphid")
os.makedirs(directory, exist_ok=True)
for name, (mode, reports) in SEEDS.items():
    with open(os.path.join(directory, name), "wb") as f:
        f.write(bytes([mode]) + b"".join(reports))
