package sandboxos

import (
	"bufio"
	"bytes"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Models of the other utilities commands lean on.

func init() {
	register(map[string]program{
		"true": viaBuiltin, "false": viaBuiltin, "echo": viaBuiltin, "printf": viaBuiltin, "test": viaBuiltin,
		"[": viaBuiltin, "pwd": viaBuiltin, "kill": viaBuiltin,
		"env": env, "printenv": printenv, "which": which, "sleep": sleep, "tail": tail, "head": head, "grep": grep,
		"wc": wc, "uname": uname, "hostname": fixedOutput("sandbox"), "nproc": fixedOutput("2"),
		"date": fixedOutput("Thu Jan  1 00:00:00 UTC 2026"), "nohup": nohup, "timeout": timeout, "seq": seq,
	})
}

func fixedOutput(line string) program {
	return func(c *call) int {
		c.out("%s\n", line)
		return 0
	}
}

// env prints the environment, or runs a program with NAME=value assignments added.
func env(c *call) int {
	args := c.argv[1:]
	vars := maps.Clone(c.env)
	for len(args) > 0 {
		switch a := args[0]; {
		case a == "-i" || a == "--ignore-environment":
			vars = map[string]string{}
		case a == "-u" && len(args) > 1:
			delete(vars, args[1])
			args = args[1:]
		case strings.Contains(a, "=") && !strings.HasPrefix(a, "-"):
			k, v, _ := strings.Cut(a, "=")
			vars[k] = v
		case a == "--":
		default:
			if strings.HasPrefix(a, "-") {
				c.errf("env: invalid option -- '%s'\n", strings.TrimLeft(a, "-"))
				return 125
			}
			exe, problem := c.p.lookPath(a, vars, c.dir)
			if problem != 0 {
				c.errf("env: '%s': No such file or directory\n", a)
				return problem
			}
			return c.p.run(c.ctx, exe, args, c.std, vars, c.dir)
		}
		args = args[1:]
	}
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		c.out("%s=%s\n", k, vars[k])
	}
	return 0
}

func printenv(c *call) int {
	if len(c.argv) == 1 {
		return env(&call{ctx: c.ctx, p: c.p, argv: []string{"env"}, std: c.std, env: c.env, dir: c.dir})
	}
	status := 0
	for _, k := range c.argv[1:] {
		v, ok := c.env[k]
		if !ok {
			status = 1
			continue
		}
		c.out("%s\n", v)
	}
	return status
}

func which(c *call) int {
	_, names := options(c.argv[1:])
	status := 0
	for _, n := range names {
		exe, problem := c.p.lookPath(n, c.env, c.dir)
		if problem != 0 {
			status = 1
			continue
		}
		c.out("%s\n", exe)
	}
	return status
}

// sleep returns at once (the emulator does not wait), except for what never ends: sleep
// infinity, and any sleep run as a service, which keeps it running.
func sleep(c *call) int {
	if len(c.argv) < 2 {
		c.errf("sleep: missing operand\n")
		return 1
	}
	if c.argv[1] == "infinity" || c.p.service {
		return c.serves()
	}
	if _, err := strconv.ParseFloat(strings.TrimRight(c.argv[1], "smhd"), 64); err != nil {
		c.errf("sleep: invalid time interval '%s'\n", c.argv[1])
		return 1
	}
	return 0
}

// input is the call's files, concatenated, or its stdin; status 2 for a missing file (grep's).
func (c *call) input(files []string, tool string) ([]byte, int) {
	if len(files) == 0 {
		data, _ := io.ReadAll(c.std.in)
		return data, 0
	}
	var buf bytes.Buffer
	status := 0
	for _, f := range files {
		data, err := c.p.m.fs.ReadFile(c.abs(f))
		if err != nil {
			c.errf("%s: %s: %s\n", tool, f, reason(err))
			status = 2
			continue
		}
		buf.Write(data)
	}
	return buf.Bytes(), status
}

// tail prints the last lines; -f follows forever.
func tail(c *call) int {
	flags, files := options(c.argv[1:], "-n", "--lines", "-c")
	if has(flags, "-f", "-F", "--follow") {
		return c.serves()
	}
	data, status := c.input(files, "tail")
	lines := splitLines(data)
	n := 10
	if v, err := strconv.Atoi(strings.TrimPrefix(value(flags, "-n", "--lines"), "+")); err == nil {
		n = v
	}
	for _, l := range lines[max(0, len(lines)-n):] {
		c.out("%s\n", l)
	}
	return min(status, 1)
}

func head(c *call) int {
	flags, files := options(c.argv[1:], "-n", "--lines", "-c")
	data, status := c.input(files, "head")
	lines := splitLines(data)
	n := 10
	if v, err := strconv.Atoi(value(flags, "-n", "--lines")); err == nil {
		n = v
	}
	for _, l := range lines[:min(n, len(lines))] {
		c.out("%s\n", l)
	}
	return min(status, 1)
}

func splitLines(data []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// grep matches lines against a pattern (basic and extended regular expressions read as Go's,
// -F fixed strings): -q, -v, -i, -c, -E, -F, -x, -w, -e PATTERN.
func grep(c *call) int {
	flags, args := options(c.argv[1:], "-e", "-m")
	pattern := value(flags, "-e")
	if !has(flags, "-e") {
		if len(args) == 0 {
			c.errf("Usage: grep [OPTION]... PATTERNS [FILE]...\n")
			return 2
		}
		pattern, args = args[0], args[1:]
	}
	expr := pattern
	if has(flags, "-F", "--fixed-strings") {
		expr = regexp.QuoteMeta(pattern)
	} else if !has(flags, "-E", "--extended-regexp") {
		expr = strings.NewReplacer(`\(`, `(`, `\)`, `)`, `\|`, `|`, `\+`, `+`, `\?`, `?`, `(`, `\(`, `)`, `\)`, `|`, `\|`, `+`, `\+`, `?`, `\?`).Replace(pattern)
	}
	if has(flags, "-w") {
		expr = `\b(?:` + expr + `)\b`
	}
	if has(flags, "-x") {
		expr = `^(?:` + expr + `)$`
	}
	if has(flags, "-i", "--ignore-case") {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		c.errf("grep: Invalid regular expression\n")
		return 2
	}
	data, status := c.input(args, "grep")
	count := 0
	for _, line := range splitLines(data) {
		if re.MatchString(line) == has(flags, "-v", "--invert-match") {
			continue
		}
		count++
		if !has(flags, "-q", "--quiet", "--silent", "-c", "--count") {
			c.out("%s\n", line)
		}
	}
	if has(flags, "-c", "--count") {
		c.out("%d\n", count)
	}
	switch {
	case count > 0 && has(flags, "-q", "--quiet", "--silent"):
		return 0
	case status != 0:
		return status
	case count == 0:
		return 1
	}
	return 0
}

func wc(c *call) int {
	flags, files := options(c.argv[1:])
	data, status := c.input(files, "wc")
	lines, words := bytes.Count(data, []byte("\n")), len(strings.Fields(string(data)))
	switch {
	case has(flags, "-l", "--lines"):
		c.out("%d\n", lines)
	case has(flags, "-w", "--words"):
		c.out("%d\n", words)
	case has(flags, "-c", "--bytes"):
		c.out("%d\n", len(data))
	default:
		c.out("%7d %7d %7d\n", lines, words, len(data))
	}
	return min(status, 1)
}

func uname(c *call) int {
	flags, _ := options(c.argv[1:])
	switch {
	case has(flags, "-a", "--all"):
		c.out("Linux sandbox 6.1.0 #1 SMP x86_64 GNU/Linux\n")
	case has(flags, "-m", "-p"):
		c.out("x86_64\n")
	case has(flags, "-r"):
		c.out("6.1.0\n")
	default:
		c.out("Linux\n")
	}
	return 0
}

func nohup(c *call) int {
	if len(c.argv) < 2 {
		c.errf("nohup: missing operand\n")
		return 125
	}
	return c.sub(c.argv[1:], c.env, c.dir)
}

func timeout(c *call) int {
	_, args := options(c.argv[1:], "-s", "--signal", "-k", "--kill-after")
	if len(args) < 2 {
		c.errf("timeout: missing operand\n")
		return 125
	}
	code := c.sub(args[1:], c.env, c.dir)
	if code == codeServing {
		return 124 // what never ends is killed when the time is up
	}
	return code
}

func seq(c *call) int {
	_, args := options(c.argv[1:])
	nums := make([]int, 0, 3)
	for _, a := range args {
		n, err := strconv.Atoi(a)
		if err != nil {
			c.errf("seq: invalid floating point argument: '%s'\n", a)
			return 1
		}
		nums = append(nums, n)
	}
	first, step, last := 1, 1, 0
	switch len(nums) {
	case 1:
		last = nums[0]
	case 2:
		first, last = nums[0], nums[1]
	case 3:
		first, step, last = nums[0], nums[1], nums[2]
	default:
		c.errf("seq: missing operand\n")
		return 1
	}
	for i := first; step > 0 && i <= last && i-first < 100000; i += step {
		c.out("%d\n", i)
	}
	return 0
}
