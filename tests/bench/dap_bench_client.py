"""A small Debug Adapter Protocol client over a Unix socket, for the debugger benchmarks.

Content-Length framing, one reader thread that files responses by request seq and keeps events in
arrival order with their arrival time (time.monotonic()), so a benchmark can measure request ->
event latencies without the client's own scheduling in the way."""
import json
import socket
import threading
import time


class DapError(Exception):
    pass


class DapClient:
    def __init__(self, path, timeout=120.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.timeout = timeout
        self.seq = 0
        self.lock = threading.Condition()
        self.responses = {}
        self.events = []          # (arrival time, message)
        self.closed = False
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        buf = b''
        try:
            while True:
                while b'\r\n\r\n' not in buf:
                    chunk = self.sock.recv(65536)
                    if not chunk:
                        raise EOFError
                    buf += chunk
                head, buf = buf.split(b'\r\n\r\n', 1)
                length = None
                for line in head.split(b'\r\n'):
                    k, _, v = line.partition(b':')
                    if k.strip().lower() == b'content-length':
                        length = int(v)
                if length is None:
                    raise DapError('a message without Content-Length')
                while len(buf) < length:
                    chunk = self.sock.recv(65536)
                    if not chunk:
                        raise EOFError
                    buf += chunk
                body, buf = buf[:length], buf[length:]
                msg = json.loads(body)
                now = time.monotonic()
                with self.lock:
                    if msg.get('type') == 'response':
                        self.responses[msg['request_seq']] = (now, msg)
                    elif msg.get('type') == 'event':
                        self.events.append((now, msg))
                    self.lock.notify_all()
        except (EOFError, OSError, ValueError, DapError):
            with self.lock:
                self.closed = True
                self.lock.notify_all()

    def send(self, command, arguments=None):
        """Sends a request; returns (its seq, the time it was written)."""
        with self.lock:
            self.seq += 1
            seq = self.seq
        msg = {'seq': seq, 'type': 'request', 'command': command}
        if arguments is not None:
            msg['arguments'] = arguments
        body = json.dumps(msg).encode()
        t = time.monotonic()
        self.sock.sendall(b'Content-Length: %d\r\n\r\n' % len(body) + body)
        return seq, t

    def response(self, seq, check=True):
        deadline = time.monotonic() + self.timeout
        with self.lock:
            while seq not in self.responses:
                if self.closed:
                    raise DapError('the server closed the connection')
                left = deadline - time.monotonic()
                if left <= 0:
                    raise DapError('no response to request %d' % seq)
                self.lock.wait(left)
            t, msg = self.responses.pop(seq)
        if check and not msg.get('success'):
            raise DapError('%s failed: %s' % (msg.get('command'), msg.get('message')))
        return msg

    def request(self, command, arguments=None, check=True):
        seq, _ = self.send(command, arguments)
        return self.response(seq, check)

    def wait_event(self, name, after=0.0, timeout=None):
        """The first event `name` that arrived at or after time `after`: (time, message)."""
        deadline = time.monotonic() + (timeout or self.timeout)
        with self.lock:
            while True:
                for i, (t, msg) in enumerate(self.events):
                    if msg.get('event') == name and t >= after:
                        del self.events[i]
                        return t, msg
                if self.closed:
                    raise DapError('the server closed the connection while waiting for %s' % name)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise DapError('no %s event' % name)
                self.lock.wait(left)

    def drop_events(self):
        with self.lock:
            self.events = []

    def hang_up(self):
        """Ends the connection without a request: shutdown, wait for the reader thread, close.
        shutdown first: a plain close() leaves the socket open while the reader thread sits in
        poll()/recv(), and the server would never see the hang-up. The reader must be gone before
        close(): a reader that has read the descriptor's number but not yet entered poll() would
        otherwise poll whatever socket reuses that number next (this process's next connection),
        and its poll() would keep that socket alive, without any descriptor, after its owner closed
        it: the server would hold a connection whose peer is neither open nor hung up (issue 14's
        lingering line connection)."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.reader.join(self.timeout)
        try:
            self.sock.close()
        except OSError:
            pass

    def close(self):
        try:
            self.request('disconnect', {}, check=False)
        except (DapError, OSError):
            pass
        self.hang_up()


def connect(path, timeout=120.0, wait=30.0):
    """Connects once the socket exists and accepts."""
    deadline = time.monotonic() + wait
    while True:
        try:
            return DapClient(path, timeout)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def start_session(c, breakpoints_by_path, attach_args=None):
    """initialize, attach, setBreakpoints, configurationDone. Returns the time configurationDone was
    sent (a pass starts then) and the attach request's seq."""
    c.request('initialize', {'clientID': 'glreplay-bench', 'adapterID': 'glreplay', 'linesStartAt1': True,
                             'columnsStartAt1': True, 'pathFormat': 'path'})
    aseq, _ = c.send('attach', attach_args or {})
    c.wait_event('initialized')
    set_breakpoints(c, breakpoints_by_path)
    cseq, t = c.send('configurationDone', {})
    c.response(cseq)
    c.response(aseq)
    return t


def set_breakpoints(c, breakpoints_by_path):
    for path, bps in breakpoints_by_path.items():
        r = c.request('setBreakpoints', {'source': {'path': path}, 'breakpoints': bps})
        for b in r['body']['breakpoints']:
            if not b.get('verified'):
                raise DapError('breakpoint not verified: %s' % b.get('message'))
