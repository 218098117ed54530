// Hostile, compile time (host files): includes the host's /etc/shadow, hoping the compiler quotes the
// first lines of what it cannot parse ("root:$y$j9T$...: error: expected unqualified-id") in the compile
// error it shows the learner. Compiles used to run as root with the host's /etc bound read-only, so
// the file was readable and its first line came back in the message.
//
// Verdict: compile error, quoting nothing of the file. The compile runs in a root whose /etc is its own
// (passwd and group naming the sandbox user, hosts, nsswitch.conf, the loader's cache): there is no
// shadow in it, so the include fails with "No such file or directory". Behind that, a judge run as root
// gives the compiler an unprivileged uid with no groups of its own, so a host file readable only by
// root stays unreadable even where a bind makes it visible (judge/sandbox/private_root.cpp,
// judge/sandbox/process_spawn.cpp).
#include "/etc/shadow"

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {}
