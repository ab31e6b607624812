package sandboxos

import "strings"

// A program model is Go code that does what a program does to the machine: it reads and writes
// the machine's filesystem and prints what the program prints. Executables name their model
// (FS.Install); an executable whose model is not here runs as an unmodelled program (call.unmodelled).
type program func(c *call) int

// programs is filled by init functions, one per file of models, because models run other
// programs through it.
var programs = map[string]program{}

func register(models map[string]program) {
	for name, model := range models {
		programs[name] = model
	}
}

// viaBuiltin runs the shell builtin of the program's name, for coreutils the shell also has
// (echo, printf, test, true, false, pwd, kill).
func viaBuiltin(c *call) int {
	name := c.name()
	if name == "[" {
		name = "["
	}
	return c.p.runScript(c.ctx, name+` "$@"`, c.argv[0], c.argv[1:], c.std, c.env, c.dir, "sh")
}

// options splits args into flags (with the values of those in takesValue) and operands, the way
// getopt_long reads them: "--" ends the flags, "-abc" is -a -b -c, "--opt=v" and "-o v" carry
// values. Each flag keeps its leading dashes.
func options(args []string, takesValue ...string) (flags map[string][]string, operands []string) {
	flags = map[string][]string{}
	takes := func(f string) bool {
		for _, t := range takesValue {
			if t == f {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return flags, append(operands, args[i+1:]...)
		case strings.HasPrefix(a, "--"):
			name, value, hasValue := strings.Cut(a, "=")
			if !hasValue && takes(name) && i+1 < len(args) {
				i++
				value = args[i]
			}
			flags[name] = append(flags[name], value)
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				f := "-" + a[j:j+1]
				if takes(f) {
					value := a[j+1:]
					if value == "" && i+1 < len(args) {
						i++
						value = args[i]
					}
					flags[f] = append(flags[f], value)
					break
				}
				flags[f] = append(flags[f], "")
			}
		default:
			operands = append(operands, a)
		}
	}
	return flags, operands
}

// has tells whether any of names was given.
func has(flags map[string][]string, names ...string) bool {
	for _, n := range names {
		if _, ok := flags[n]; ok {
			return true
		}
	}
	return false
}

// value is the last value given for any of names, or "".
func value(flags map[string][]string, names ...string) string {
	v := ""
	for _, n := range names {
		if vs := flags[n]; len(vs) > 0 {
			v = vs[len(vs)-1]
		}
	}
	return v
}
