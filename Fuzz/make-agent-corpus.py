#!/usr/bin/env python3
"""Writes the seed corpus Fuzz/Corpus/agent (committed; rerun to regenerate).

Each file is one ssh-agent message body (type byte and contents, no length),
as FuzzAgent takes it. The hand-made ones follow draft-miller-ssh-agent's
layouts; the real-* ones are what OpenSSH's ssh-add and ssh-keygen sent to a
fake agent on a temporary socket, with throw-away keys that protect nothing.
"""
import base64, os, socket, struct, subprocess, tempfile, threading

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Corpus", "agent")
os.makedirs(out, exist_ok=True)

def s(b):
    b = b.encode() if isinstance(b, str) else b
    return struct.pack(">I", len(b)) + b

def write(name, body):
    with open(os.path.join(out, name), "wb") as f:
        f.write(body)

tmp = tempfile.mkdtemp()
keys = {}
for name, args in [("ed25519", ["-t", "ed25519"]), ("ecdsa", ["-t", "ecdsa", "-b", "256"]), ("ecdsa384", ["-t", "ecdsa", "-b", "384"]),
                   ("ecdsa521", ["-t", "ecdsa", "-b", "521"]), ("rsa2048", ["-t", "rsa", "-b", "2048"])]:
    path = os.path.join(tmp, name)
    subprocess.run(["ssh-keygen", *args, "-N", "", "-q", "-C", f"corpus {name}", "-f", path], check=True)
    keys[name] = path

# A fake agent that records every body and answers success (no identities).
captured = []
sock_path = os.path.join(tmp, "agent.sock")
server = socket.socket(socket.AF_UNIX)
server.bind(sock_path)
server.listen(8)

def serve():
    while True:
        conn, _ = server.accept()
        with conn:
            while True:
                header = conn.recv(4, socket.MSG_WAITALL)
                if len(header) < 4:
                    break
                (length,) = struct.unpack(">I", header)
                body = conn.recv(length, socket.MSG_WAITALL)
                captured.append(body)
                reply = b"\x0c" + struct.pack(">I", 0) if body[:1] == b"\x0b" else (b"\x05" if body[:1] == b"\x0d" else b"\x06")
                conn.sendall(struct.pack(">I", len(reply)) + reply)

threading.Thread(target=serve, daemon=True).start()
env = dict(os.environ, SSH_AUTH_SOCK=sock_path, SSH_ASKPASS="/bin/false", DISPLAY="")
def run(*cmd):
    subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, capture_output=True)
run("ssh-add", keys["ed25519"])
run("ssh-add", "-t", "3600", "-c", keys["ecdsa"])
run("ssh-add", keys["ecdsa384"])
run("ssh-add", keys["ecdsa521"])
run("ssh-add", keys["rsa2048"])
# A destination constraint (ssh-add -h) as OpenSSH sends it: a host named in
# a private known_hosts file, with a throw-away host key.
subprocess.run(["ssh-keygen", "-t", "ed25519", "-N", "", "-q", "-f", os.path.join(tmp, "host")], check=True)
known_hosts = os.path.join(tmp, "known_hosts")
open(known_hosts, "w").write("example.test " + open(os.path.join(tmp, "host.pub")).read())
run("ssh-add", "-H", known_hosts, "-h", "example.test", "-h", "user@example.test", keys["ed25519"])
run("ssh-add", "-l")
run("ssh-add", "-d", keys["ed25519"] + ".pub")
run("ssh-add", "-D")
message = os.path.join(tmp, "message")
open(message, "w").write("signed by the agent\n")
run("ssh-keygen", "-Y", "sign", "-n", "file", "-f", keys["ed25519"] + ".pub", message)
write("13-sign-rsa-sha2-512", b"\x0d" + s(s("ssh-rsa") + s(b"\x01\x00\x01") + s(b"\x00" + bytes([0xc5]) * 256)) + s(b"data") + struct.pack(">I", 4))
seen = {}
for body in captured:
    kind = body[0]
    seen[kind] = seen.get(kind, 0) + 1
    write(f"real-{kind}-{seen[kind]}", body)

host_key = s("ssh-ed25519") + s(bytes(range(32)))
write("11-request-identities", b"\x0b")
write("13-sign", b"\x0d" + s(host_key) + s(b"data to sign") + struct.pack(">I", 0))
write("18-remove", b"\x12" + s(host_key))
write("19-remove-all", b"\x13")
write("22-lock", b"\x16" + s(b"hunter2"))
write("23-unlock", b"\x17" + s(b"hunter2"))
write("25-extension-constraint", b"\x19" + s("ssh-ed25519") + s(bytes(32)) + s(bytes(64)) + s("c")
      + b"\x01" + struct.pack(">I", 60) + b"\x02" + b"\xff" + s("restrict-destination-v00@openssh.com") + s(s(b"")))
write("27-session-bind", b"\x1b" + s("session-bind@openssh.com") + s(host_key) + s(bytes(32)) + s(s("ssh-ed25519") + s(bytes(64))) + b"\x00")
write("27-query", b"\x1b" + s("query"))
write("17-rsa-unsupported", b"\x11" + s("ssh-rsa") + s(b"\x01\x00\x01") + s(b"\x00\xc5"))
write("17-sk-unsupported", b"\x11" + s("sk-ssh-ed25519@openssh.com") + s(bytes(32)) + s("ssh:") + b"\x01" + s(b"") + s(b"") + s("c"))
def write_destination_constraints():
    """Message 25 with restrict-destination-v00@openssh.com (ssh-add -h, issue 26):
    hand-made hops (origin to a host, a host to a host with a user pattern and a
    CA key, two destinations), the inconsistent ones the agent refuses, and what
    a real ssh-add -h 'a>b' sent to the fake agent."""
    # A consistent key (what ssh-add sent for the throw-away Ed25519 key, with
    # its comment), so that the parser reaches the constraints.
    ed = next(body[1:] for body in captured if body[:1] == b"\x11" and body[5:16] == b"ssh-ed25519")
    key_a = s("ssh-ed25519") + s(bytes(range(32)))
    key_b = s("ssh-ed25519") + s(bytes(range(32, 64)))
    def hop(user="", host="", keys=(), ext=b""):
        return s(user) + s(host) + s(ext) + b"".join(s(k) + bytes([ca]) for k, ca in keys)
    def dest(frm, to, ext=b""):
        return s(s(frm) + s(to) + s(ext))
    def add(*dests, tail=b""):
        return b"\x19" + ed + b"\xff" + s("restrict-destination-v00@openssh.com") + s(b"".join(dests)) + tail
    origin_to_a = dest(hop(), hop(host="hosta", keys=[(key_a, 0)]))
    a_to_b = dest(hop(host="hosta", keys=[(key_a, 0)]), hop(user="deploy*", host="hostb", keys=[(key_b, 0), (key_a, 1)]))
    write("25-dest-origin", add(origin_to_a))
    write("25-dest-hop", add(origin_to_a, a_to_b, tail=b"\x02" + b"\x01" + struct.pack(">I", 60)))
    write("25-dest-from-without-keys", add(dest(hop(host="hosta"), hop(host="hostb", keys=[(key_b, 0)]))))
    write("25-dest-to-without-keys", add(dest(hop(), hop(host="hostb"))))
    write("25-dest-hop-extension", add(dest(hop(), hop(host="hostb", keys=[(key_b, 0)], ext=b"x"))))
    write("25-dest-constraint-extension", add(dest(hop(), hop(host="hostb", keys=[(key_b, 0)]), ext=b"x")))
    write("25-dest-long-user", add(dest(hop(), hop(user="u" * 257, host="hostb", keys=[(key_b, 0)]))))
    write("25-dest-twice", add(origin_to_a, tail=b"\xff" + s("restrict-destination-v00@openssh.com") + s(origin_to_a)))
    write("25-dest-empty", add())
    known = os.path.join(tmp, "known_hosts_dest")
    host = open(os.path.join(tmp, "host.pub")).read()
    open(known, "w").write("a.test " + host + "b.test " + host)
    before = len(captured)
    run("ssh-add", "-H", known, "-h", "a.test", "-h", "a.test>deploy@b.test", keys["ed25519"])
    if len(captured) > before:
        write("real-25-dest-hop", captured[-1])

write_destination_constraints()

def key_types():
    """Issue 26: every RSA size and NIST curve the agent keeps, made by
    ssh-keygen, as ssh-add adds them (17, and 25 with a lifetime), as
    ssh-add -d names them (18), and sign requests for each key (13; RSA
    with the rsa-sha2-256 and rsa-sha2-512 flags, as ssh asks). ssh-keygen
    -Y sign sends no sign request to an agent without identities, so those
    are framed here around the .pub file's own blob."""
    types = [("rsa2048", ["-t", "rsa", "-b", "2048"]), ("rsa3072", ["-t", "rsa", "-b", "3072"]),
             ("rsa4096", ["-t", "rsa", "-b", "4096"]), ("p384", ["-t", "ecdsa", "-b", "384"]),
             ("p521", ["-t", "ecdsa", "-b", "521"])]
    for name, args in types:
        path = os.path.join(tmp, "types-" + name)
        subprocess.run(["ssh-keygen", *args, "-N", "", "-q", "-C", f"corpus {name}", "-f", path], check=True)
        start = len(captured)
        run("ssh-add", path)
        run("ssh-add", "-t", "600", path)
        run("ssh-add", "-d", path + ".pub")
        labels = {0x11: "add", 0x19: "add-lifetime", 0x12: "remove"}
        for body in captured[start:]:
            if body[0] in labels:
                write(f"types-{body[0]}-{labels[body[0]]}-{name}", body)
        blob = base64.b64decode(open(path + ".pub").read().split()[1])
        flags = [("rsa-sha2-256", 2), ("rsa-sha2-512", 4)] if name.startswith("rsa") else [("", 0)]
        for flag_name, flag in flags:
            suffix = f"{flag_name}-{name}" if flag_name else name
            write(f"types-13-sign-{suffix}", b"\x0d" + s(blob) + s(b"data to sign") + struct.pack(">I", flag))

key_types()
print(f"{len(os.listdir(out))} files in {out}; captured types {sorted(seen)}")
