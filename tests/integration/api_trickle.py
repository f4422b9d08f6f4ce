#!/usr/bin/env python3
"""usage: api_trickle.py PORT N SECONDS

Opens N connections to 127.0.0.1:PORT and trickles a request line into
each, one byte per connection every 0.2 s, for SECONDS (a slow client
libmicrohttpd's idle timeout does not cut).  Prints how many connected.
"""
import socket, sys, time
port, n, secs = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
socks = []
for i in range(n):
    s = socket.socket(); s.settimeout(2)
    try:
        s.connect(("127.0.0.1", port)); socks.append(s)
    except OSError:
        pass
req = b"GET /api/v1/status HTTP/1.1\r\nHost: x\r\n"
end = time.time() + secs; i = 0
while time.time() < end:
    for s in socks:
        try: s.send(req[i % len(req):i % len(req) + 1])
        except OSError: pass
    i += 1; time.sleep(0.2)
print(len(socks))
