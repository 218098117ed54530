// Test fixture: problem_spec_test only checks that baseline.source names an existing file; this is
// never compiled.
