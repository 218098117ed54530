// A shared object the syscall filter test loads with dlopen, as the runner loads solution.so.
extern "C" int syscall_filter_test_answer() { return 42; }
