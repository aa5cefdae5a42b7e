"""Median latency of playground moves on one kept-alive HTTP connection:
`python3 Benchmarks/playground-latency.py .build/release/droprules rules/calendar/move-to-empty-day.scenario.json`."""
import http.client, json, subprocess, sys, time, re, statistics
binary, scenario = sys.argv[1], sys.argv[2]
proc = subprocess.Popen([binary, "play", scenario, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
port = None
for line in proc.stdout:
    m = re.search(r"127\.0\.0\.1:(\d+)", line)
    if m:
        port = int(m.group(1)); break
conn = http.client.HTTPConnection("127.0.0.1", port)
def rpc(method, params=None, i=[0]):
    i[0] += 1
    body = json.dumps({"jsonrpc": "2.0", "id": i[0], "method": method, "params": params} if params is not None else {"jsonrpc": "2.0", "id": i[0], "method": method})
    conn.request("POST", "/rpc", body=body, headers={"Content-Type": "application/json", "Host": f"127.0.0.1:{port}", "Connection": "keep-alive"})
    r = conn.getresponse(); return json.loads(r.read())
rpc("cancel")
rpc("beginDrag", {"items": ["standup"]})
times = []
for k in range(60):
    t = time.perf_counter(); rpc("move", {"at": [50 + (k % 40), 50]}); times.append(time.perf_counter() - t)
rpc("cancel")
proc.terminate()
print(f"median {statistics.median(times)*1000:.2f} ms, p90 {sorted(times)[int(len(times)*0.9)]*1000:.2f} ms over {len(times)} moves")
