#!/usr/bin/python3
"""An HTTP server on loopback for the tests of `nudge import URL` and the quote of the day.

Prints its port on the first line of stdout, then serves until killed. /requests answers how
often each other path was asked for, as a JSON object. /files/NAME serves NAME from the folder
given as the first argument, with a Content-Length.
"""
import http.server
import json
import os
import sys
import threading
import time

FOLDER = sys.argv[1] if len(sys.argv) > 1 else "."
TODOS = json.dumps([
    {"userId": 1, "id": 1, "title": "delectus aut autem", "completed": False},
    {"userId": 1, "id": 2, "title": "quis ut nam facilis", "completed": True},
    {"userId": 2, "id": 3, "title": "fugiat veniam minus", "completed": False},
]).encode()
counts = {}
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_body(self, status, body, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def redirect(self, to):
        self.send_response(302)
        self.send_header("Location", to)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def do_GET(self):
        path = self.path
        if path == "/requests":
            with lock:
                return self.send_body(200, json.dumps(counts).encode())
        with lock:
            counts[path] = counts.get(path, 0) + 1
        if path == "/todos":
            self.send_body(200, TODOS)
        elif path.startswith("/files/"):
            name = os.path.basename(path[len("/files/"):])
            try:
                with open(os.path.join(FOLDER, name), "rb") as file:
                    self.send_body(200, file.read())
            except OSError:
                self.send_body(404, b"no such file", "text/plain")
        elif path == "/slow":
            # The todos with a Content-Length, a few bytes at a time over about 1.5 s.
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(TODOS)))
            self.end_headers()
            pieces = 10
            size = (len(TODOS) + pieces - 1) // pieces
            for start in range(0, len(TODOS), size):
                self.wfile.write(TODOS[start:start + size])
                self.wfile.flush()
                time.sleep(0.15)
        elif path == "/chunked":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for start in range(0, len(TODOS), 40):
                self.chunk(TODOS[start:start + 40])
                time.sleep(0.05)
            self.wfile.write(b"0\r\n\r\n")
        elif path == "/page":
            # A web page, as a wrong URL or a login wall answers.
            self.send_body(200, b"<!DOCTYPE html>\n<html><head><title>Sign in</title></head>\n<body>\n<p>Please sign in</p>\n</body></html>\n",
                           "text/html; charset=utf-8")
        elif path == "/lines-as-html":
            # todo.txt lines that the server calls a web page.
            self.send_body(200, b"Buy milk\nCall mum\n", "text/html")
        elif path == "/redirect-to-page":
            self.redirect("/page")
        elif path == "/404":
            self.send_body(404, b"not here", "text/plain")
        elif path == "/500":
            self.send_body(500, b"broken", "text/plain")
        elif path == "/invalid":
            self.send_body(200, b'[{"id": 1, "title": "cut off')
        elif path == "/endless":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            block = b"[" + b" " * 65535
            try:
                while True:
                    self.chunk(block)
            except OSError:
                pass
        elif path == "/stall":
            # Headers, then nothing.
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.flush()
            time.sleep(30)
        elif path == "/stall-after-bytes":
            # Headers and the first bytes, then nothing.
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.write(b"[ ")
            self.wfile.flush()
            time.sleep(30)
        elif path == "/loop":
            self.redirect("/loop")
        elif path == "/redirect":
            self.redirect("/todos")
        elif path == "/redirect-to-file":
            self.redirect("file:///etc/passwd")
        elif path == "/quote/zenquotes":
            self.send_body(200, json.dumps([{"q": "Well begun is half done.", "a": "Aristotle", "h": "<b>x</b>"}]).encode())
        elif path == "/quote/quotable":
            self.send_body(200, json.dumps({"content": "Simplicity is the soul of efficiency.", "author": "Austin Freeman"}).encode())
        elif path == "/quote/type-fit":
            self.send_body(200, json.dumps([{"text": "Less is more.", "author": "Mies"}]).encode())
        elif path == "/quote/hostile":
            self.send_body(200, json.dumps([{"q": "Clear\u001b[2J the <screen> & \u202eevil", "a": "Mallory\nEve"}]).encode())
        elif path == "/quote/slow":
            time.sleep(5)
            self.send_body(200, json.dumps([{"q": "Too late.", "a": "Nobody"}]).encode())
        else:
            self.send_body(404, b"unknown", "text/plain")


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
