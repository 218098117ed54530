// Hostile, compile time: submits nothing of its own but includes a faster solution
// found next to it. Compiled in place, a quoted #include looks first in the including file's own folder,
// so a relative path reaches the other submissions (an attacker finds the layout with __FILE__ and probes
// names with __has_include); this one takes the ladder's fastest example.
//
// Verdict: compile error ("No such file or directory"). The judge copies the learner's units alone into
// a staging folder and compiles them there (judge/compile/compile.cpp), in a sandbox whose root holds the
// system and that staging folder only (judge/sandbox/): no other submission exists for it to include.
#include "../accepted/05_register_2d.cu"
