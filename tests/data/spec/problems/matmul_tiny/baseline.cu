// Test fixture: problem_test only checks that baseline.source names an existing file; this is
// never compiled.
