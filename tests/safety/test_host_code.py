"""Code given to any language host (rules/host_code.py): a body fed on stdin to a program told to run it, a
makefile fed to any make-like, the hosts' own calls ($EXEC, \\write18, proc:system, Process.Start, "…".execute(),
.NET's deletes) and their shell escapes (`!cmd`, `platform shell`, `:!`), each judged as the command it runs."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    # bodies fed on stdin to hosts no rule names
    "printf '#include <stdlib.h>\\nint main(){system(\"rm -rf /home/dev/src\");}' | tcc -run -",
    "echo 'Process.Start(\"rm\", \"-rf /home/dev/src\")' | csi",
    "dotnet fsi <<< 'System.IO.Directory.Delete(\"/home/dev/src\", true);;'",
    "echo 'System.cmd(\"rm\", [\"-rf\", \"/home/dev/src\"])' | iex",
    "echo '\"rm -rf /home/dev/src\".execute()' | groovysh",
    "jjs -scripting <<< '$EXEC(\"rm -rf /home/dev/.ssh\")'",
    "printf 'int main(){ system(\"rm -rf ~/notes\"); }' | picoc -s -",
    "echo 'os.execute(\"rm -rf /srv/www\")' | tarantool -",
    # makefiles fed to any make-like
    "printf 'all:\\n\\trm -rf ~/work\\n' | pmake -f -",
    "printf 'clean:\\n\\t@rm -rf /srv/data\\n' | remake -f /dev/stdin",
    "printf 'x:\\n\\trm -rf /home/dev/src\\n' | kati -f -",
    # the hosts' own calls and escapes
    "xelatex -shell-escape '\\immediate\\write18{rm -rf ~/thesis}'",
    "tex --shell-escape '\\write18{rm -rf /home/dev}'",
    "rizin -q -c '!rm -rf ~/x' /bin/ls",
    "lldb -o 'platform shell rm -rf ~/src'",
    "echo ':! rm -rf ~/src' | ghci",
    "echo '!!rm -rf ~/x' | r2 -",
    "saxon -qs:'proc:system(\"rm\", (\"-rf\", \"/srv/data\"))'",
    "echo 'System.IO.Directory.Delete(@\"/home/dev/Music\", true);' | dotnet-script -",
    # process builders and deletes in other languages' shapes
    "printf 'fn main() { std::process::Command::new(\"rm\").args([\"-rf\", \"/home/dev/src\"]).status(); }' | "
    "rust-script -",
    "echo 'exec.Command(\"rm\", \"-rf\", \"/home/dev/src\").Run()' | gore",
    "echo 'Process.run(\"rm\", [\"-rf\", \"/home/dev/src\"])' | crystal i",
    "echo 'import std.process; executeShell(\"rm -rf /home/dev/src\");' | rdmd --eval=-",
    "zig run - <<< 'pub fn main() !void { try std.fs.cwd().deleteTree(\"/home/dev/src\"); }'",
])
def test_code_any_host_runs_is_judged(command):
    assert reaches(command, "medium"), judged(command)


@each_form("command", [
    "python -c 'print(1)'",
    "tcc -run hello.c",
    "printf '#include <stdio.h>\\nint main(){puts(\"hi\");}' | tcc -run -",
    "printf 'all:\\n\\techo hello\\n' | remake -f -",
    "printf 'all:\\n\\tgcc -o app main.c\\n' | pmake -f -",
    "echo 'printfn \"%d\" 42;;' | dotnet fsi",
    "echo 'system(\"rm -rf /home/dev/src\")' | grep system",
    "echo 'system(\"rm -rf /home/dev/src\")' | xclip -selection clipboard",
    "pdflatex -shell-escape thesis.tex",
    "xelatex '\\immediate\\write18{ls}'",
    "r2 -q -c 'pdf @ main' /bin/ls",
    "lldb -o 'platform shell ls' ./app",
    "echo ':! ls' | ghci",
    "jjs -scripting <<< '$EXEC(\"ls -la\")'",
    "echo 'exec.Command(\"git\", \"status\").Run()' | gore",
    "printf 'fn main() { std::process::Command::new(\"ls\").arg(\"-l\").status(); }' | rust-script -",
    "zig run - <<< 'pub fn main() !void { std.debug.print(\"hi\", .{}); }'",
])
def test_code_any_host_quiet_look_alikes(command):
    assert stays_quiet(command), judged(command)
