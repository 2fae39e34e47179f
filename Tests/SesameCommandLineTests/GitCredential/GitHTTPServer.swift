import Foundation
import SesameLinuxTesting

/// `git http-backend` behind HTTP Basic auth on 127.0.0.1, served by a small
/// Python CGI bridge: the test's own child, killed by pid.
final class GitHTTPServer: @unchecked Sendable {
    let port: Int
    let user = "alice"
    private let process: Process
    private let passwordFile: String

    /// Starts serving the bare repositories under `root`, accepting `user`
    /// with the password in `passwordFile` (read on every request, so a test
    /// can change it).
    init(root: String, passwordFile: String, directory: String) throws {
        self.passwordFile = passwordFile
        let script = directory + "/git-http-server.py"
        let portFile = directory + "/port"
        try Self.script.write(toFile: script, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: TestPython.path)
        process.arguments = [script, root, user, passwordFile, portFile]
        process.environment = ["PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The server writes its port once it listens; polling a file is the
        // only wait, bounded, and never a timed assertion.
        var found: Int?
        for _ in 0..<200 {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                found = number
                break
            }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        guard let found else {
            kill(process.processIdentifier, SIGKILL)
            throw EnvironmentError("the git http-backend server did not start (python3 at /usr/bin/python3 and git http-backend are needed)")
        }
        port = found
    }

    /// Changes the password the server accepts.
    func setPassword(_ password: String) throws {
        try password.write(toFile: passwordFile, atomically: true, encoding: .utf8)
    }

    /// Kills the server by pid and reaps it.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static let script = #"""
    import base64, http.server, os, subprocess, sys
    root, user, password_file, port_file = sys.argv[1:5]

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            self.serve()

        def do_POST(self):
            self.serve()

        def serve(self):
            with open(password_file) as f:
                password = f.read().strip()
            expected = 'Basic ' + base64.b64encode(f'{user}:{password}'.encode()).decode()
            if self.headers.get('Authorization') != expected:
                self.send_response(401)
                self.send_header('WWW-Authenticate', 'Basic realm="sesame-test"')
                self.send_header('Content-Length', '0')
                self.end_headers()
                return
            path, _, query = self.path.partition('?')
            length = int(self.headers.get('Content-Length') or 0)
            body = self.rfile.read(length) if length else b''
            env = {
                'PATH': os.environ['PATH'], 'GIT_PROJECT_ROOT': root, 'GIT_HTTP_EXPORT_ALL': '1',
                'REQUEST_METHOD': self.command, 'PATH_INFO': path, 'QUERY_STRING': query,
                'CONTENT_TYPE': self.headers.get('Content-Type', ''), 'CONTENT_LENGTH': str(len(body)),
                'HTTP_CONTENT_ENCODING': self.headers.get('Content-Encoding', ''),
                'GIT_PROTOCOL': self.headers.get('Git-Protocol', ''),
                'REMOTE_USER': user, 'REMOTE_ADDR': '127.0.0.1',
            }
            out = subprocess.run(['git', 'http-backend'], input=body, env=env, capture_output=True).stdout
            separator = b'\r\n\r\n' if b'\r\n\r\n' in out else b'\n\n'
            head, _, payload = out.partition(separator)
            status, headers = 200, []
            for line in head.decode().splitlines():
                key, _, value = line.partition(':')
                if key.lower() == 'status':
                    status = int(value.split()[0])
                elif key:
                    headers.append((key, value.strip()))
            self.send_response(status)
            for key, value in headers:
                self.send_header(key, value)
            self.send_header('Content-Length', str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
    with open(port_file + '.tmp', 'w') as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + '.tmp', port_file)
    server.serve_forever()
    """#
}
