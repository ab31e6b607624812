package provider

import "testing"

func TestFailedCreateCrashes(t *testing.T) {
	for v, want := range map[string]bool{
		"1.5.7": false, "1.12.6": false, "1.15.5": false, "1.15.6": false,
		"1.16.0-rc1": true, "1.16.0": true, "1.16.2": true, "1.16.4": true, "1.17.0": true,
		"": false, "not a version": false,
	} {
		if got := failedCreateCrashes(v); got != want {
			t.Errorf("failedCreateCrashes(%q) = %v, want %v", v, got, want)
		}
	}
}
