package sandboxos

import (
	"maps"
	"regexp"
	"strings"
)

// Docker Hub's official images, as far as the emulator knows them. For python, node, ubuntu,
// debian and alpine it knows which tags exist (a tag outside the patterns below was never
// published: MANIFEST_UNKNOWN); for the other official repositories any tag is taken to exist.
// A single-word name that is no official repository does not exist on Docker Hub, which answers a
// pull of a missing repository with UNAUTHORIZED ("pull access denied ... repository does not
// exist or may require 'docker login'").

// officialTags are the tags each well-known official repository has published.
var officialTags = map[string]*regexp.Regexp{
	"python": regexp.MustCompile(`^(latest|slim|alpine|bookworm|bullseye|trixie|slim-(bookworm|bullseye|trixie)|alpine3\.\d+|` +
		`(3|3\.([3-9]|1[0-4])(\.\d+)?|2|2\.7(\.\d+)?)(-(slim|alpine|alpine3\.\d+|bookworm|bullseye|buster|trixie|slim-(bookworm|bullseye|buster|trixie)))?)$`),
	"node": regexp.MustCompile(`^(latest|current|lts|slim|alpine|bookworm|bullseye|trixie|iron|jod|krypton|hydrogen|gallium)` +
		`(-(slim|alpine|alpine3\.\d+|bookworm|bookworm-slim|bullseye|bullseye-slim|trixie|trixie-slim))?$|` +
		`^(0\.(10|12)|[4-9]|1\d|2[0-5])(\.\d+){0,2}(-(slim|alpine|alpine3\.\d+|bookworm|bookworm-slim|bullseye|bullseye-slim|buster|buster-slim|trixie|trixie-slim))?$`),
	"ubuntu": regexp.MustCompile(`^(latest|rolling|devel|(1[4-9]|2[0-5])\.(04|10)(\.\d+)?|trusty|xenial|bionic|focal|jammy|noble|oracular|plucky|questing)(-\d{8}(\.\d+)?)?$`),
	"debian": regexp.MustCompile(`^(latest|stable|oldstable|testing|unstable|sid|experimental|buster|bullseye|bookworm|trixie|forky|(9|1[0-3])(\.\d+)?)` +
		`(-slim|-\d{8}(-slim)?)?$`),
	"alpine": regexp.MustCompile(`^(latest|edge|3|3\.(\d|1\d|2[0-2])(\.\d+)?)$`),
}

// otherOfficial are the other official repositories the emulator accepts, with the programs each
// adds to its family (Debian, or Alpine for an alpine tag).
var otherOfficial = map[string]map[string]string{
	"buildpack-deps": buildpackPrograms, "golang": merge(bins("/usr/local/go/bin", "go", "gofmt"), buildpackPrograms),
	"rust": merge(bins("/usr/local/cargo/bin", "cargo", "rustc", "rustup"), buildpackPrograms), "ruby": merge(bins("/usr/local/bin", "ruby", "gem", "bundle", "irb"), buildpackPrograms),
	"openjdk": bins("/usr/local/openjdk/bin", "java", "javac"), "eclipse-temurin": bins("/opt/java/openjdk/bin", "java", "javac"),
	"amazoncorretto": bins("/usr/bin", "java", "javac"), "php": bins("/usr/local/bin", "php", "pecl"), "perl": bins("/usr/local/bin", "perl", "cpan"),
	"nginx": bins("/usr/sbin", "nginx"), "httpd": bins("/usr/local/apache2/bin", "httpd"), "redis": bins("/usr/local/bin", "redis-server", "redis-cli"),
	"postgres": bins("/usr/lib/postgresql/bin", "postgres", "psql"), "mysql": bins("/usr/bin", "mysqld", "mysql"), "mariadb": bins("/usr/bin", "mariadbd", "mariadb"),
	"mongo": bins("/usr/bin", "mongod", "mongosh"), "busybox": {}, "centos": {}, "fedora": {}, "rockylinux": {}, "almalinux": {}, "amazonlinux": {},
	"archlinux": {}, "oraclelinux": {}, "opensuse": {}, "clearlinux": {}, "gcc": bins("/usr/local/bin", "gcc", "g++", "make"),
	"haskell": bins("/usr/local/bin", "ghc", "cabal", "stack"), "julia": bins("/usr/local/julia/bin", "julia"), "r-base": bins("/usr/bin", "R", "Rscript"),
	"elixir": bins("/usr/local/bin", "elixir", "mix", "iex"), "erlang": bins("/usr/local/bin", "erl"), "swift": bins("/usr/bin", "swift"),
	"dart": bins("/usr/lib/dart/bin", "dart"), "clojure": bins("/usr/local/bin", "clojure", "lein"), "gradle": bins("/opt/gradle/bin", "gradle", "java"),
	"maven": bins("/usr/share/maven/bin", "mvn", "java"), "composer": bins("/usr/bin", "composer", "php"), "bash": bins("/usr/local/bin", "bash"),
	"docker": bins("/usr/local/bin", "docker"), "traefik": bins("/usr/local/bin", "traefik"), "caddy": bins("/usr/bin", "caddy"),
	"memcached": bins("/usr/local/bin", "memcached"), "rabbitmq": bins("/opt/rabbitmq/sbin", "rabbitmq-server"), "elasticsearch": {},
	"influxdb": {}, "cassandra": {}, "couchdb": {}, "neo4j": {}, "ghost": {}, "wordpress": {}, "drupal": {}, "joomla": {}, "nextcloud": {},
	"tomcat": {}, "jetty": {}, "registry": {}, "vault": {}, "consul": {}, "hello-world": {}, "node-red": {}, "pypy": bins("/opt/pypy/bin", "pypy3", "pypy"),
	"jruby": {}, "groovy": {}, "kotlin": {}, "crystal": {}, "nim": {}, "zig": {}, "mono": {}, "odoo": {}, "sonarqube": {}, "solr": {},
	"kibana": {}, "logstash": {}, "telegraf": {}, "chronograf": {}, "kapacitor": {}, "haproxy": {}, "varnish": {},
	"nats": {}, "zookeeper": {}, "flink": {}, "spark": {}, "storm": {}, "tensorflow": {}, "postfixadmin": {}, "adminer": {}, "phpmyadmin": {},
	"matomo": {}, "redmine": {}, "mediawiki": {}, "rocket.chat": {}, "teamspeak": {}, "api-firewall": {}, "bonita": {}, "convertigo": {},
	"couchbase": {}, "friendica": {}, "geonetwork": {}, "hylang": {}, "ibmjava": {}, "irssi": {}, "kong": {}, "lightstreamer": {},
	"liquibase": {}, "mongo-express": {}, "nats-streaming": {}, "orientdb": {}, "percona": {}, "photon": {}, "plone": {}, "rakudo-star": {},
	"rethinkdb": {}, "satosa": {}, "silverpeas": {}, "spiped": {}, "swipl": {}, "unit": {}, "xwiki": {}, "yourls": {}, "znc": {},
	"emqx": {}, "gazebo": {}, "ros": {}, "sapmachine": {}, "ibm-semeru-runtimes": {}, "open-liberty": {}, "websphere-liberty": {},
	"backdrop": {}, "alt": {}, "cirros": {}, "mageia": {}, "sl": {}, "ubuntu-debootstrap": {}, "aerospike": {}, "arangodb": {},
	"clickhouse": {}, "questdb": {}, "varnish-cache": {}, "yottadb": {}, "krakend": {}, "fluentd": {}, "rust-musl": {}, "eggdrop": {},
	"eclipse-mosquitto": {}, //nolint:misspell // Docker Hub's name for the Mosquitto broker
}

// buildpackPrograms are what the full (not -slim) Debian-based language images add through
// buildpack-deps: a compiler, version control and download tools.
var buildpackPrograms = merge(bins("/usr/bin", "curl", "wget", "git", "gcc", "g++", "make", "ssh", "unzip", "xz", "patch", "gpg"))

// pythonVersions is what `python --version` prints for a minor version (Docker Hub's newest patch).
var pythonVersions = map[string]string{"2.7": "2.7.18", "3.3": "3.3.7", "3.4": "3.4.10", "3.5": "3.5.10", "3.6": "3.6.15",
	"3.7": "3.7.17", "3.8": "3.8.20", "3.9": "3.9.24", "3.10": "3.10.19", "3.11": "3.11.14", "3.12": "3.12.12",
	"3.13": "3.13.9", "3.14": "3.14.0", "3": "3.14.0", "2": "2.7.18"}

// nodeVersions is what `node --version` prints for a major version or a release name.
var nodeVersions = map[string]string{"0.10": "v0.10.48", "0.12": "v0.12.18", "4": "v4.9.1", "6": "v6.17.1", "8": "v8.17.0",
	"10": "v10.24.1", "12": "v12.22.12", "14": "v14.21.3", "16": "v16.20.2", "18": "v18.20.8", "20": "v20.19.5",
	"22": "v22.21.1", "24": "v24.11.1", "25": "v25.2.1", "hydrogen": "v18.20.8", "iron": "v20.19.5", "jod": "v22.21.1",
	"krypton": "v24.11.1", "gallium": "v16.20.2", "lts": "v24.11.1", "current": "v25.2.1", "latest": "v25.2.1"}

var versionPrefix = regexp.MustCompile(`^\d+(\.\d+)?`)

// officialImage is the image an official repository's tag names.
func officialImage(name, tag string) (Image, bool) {
	if pattern, known := officialTags[name]; known && !pattern.MatchString(tag) {
		return Image{}, false
	}
	extra, other := otherOfficial[name]
	if _, known := officialTags[name]; !known && !other {
		return Image{}, false
	}
	family := Debian
	if strings.Contains(tag, "alpine") {
		family = Alpine
	}
	switch name {
	case "ubuntu":
		family = Ubuntu
	case "alpine":
		family = Alpine
	}
	img := familyImage(family)
	img.Cmd = []string{"/bin/bash"}
	if family == Alpine {
		img.Cmd = []string{"/bin/sh"}
	}
	switch name {
	case "python":
		withPython(&img, pythonVersion(tag), "/usr/local/bin", false)
		if family == Debian && !strings.Contains(tag, "slim") {
			maps.Copy(img.Programs, buildpackPrograms)
		}
		img.Cmd = []string{"python3"}
	case "node":
		img.Node = nodeVersion(tag)
		maps.Copy(img.Programs, bins("/usr/local/bin", "node", "npm", "npx", "yarn", "corepack"))
		maps.Copy(img.Programs, map[string]string{"/usr/local/bin/docker-entrypoint.sh": "node-entrypoint"})
		if family == Debian && !strings.Contains(tag, "slim") {
			maps.Copy(img.Programs, buildpackPrograms)
		}
		img.Users = append(img.Users, User{Name: "node", UID: 1000, GID: 1000, Home: "/home/node", Shell: "/bin/bash"})
		if family == Alpine {
			img.Users[len(img.Users)-1].Shell = "/bin/sh"
		}
		img.Entrypoint, img.Cmd = []string{"docker-entrypoint.sh"}, []string{"node"}
	default:
		maps.Copy(img.Programs, extra)
	}
	return img, true
}

// withPython puts a Python interpreter and pip in dir.
func withPython(img *Image, version, dir string, externallyManaged bool) {
	img.Python, img.ExternallyManaged = version, externallyManaged
	maps.Copy(img.Programs, bins(dir, "python3", "pip3", "python", "pip"))
	for _, p := range []string{"python3", "python"} {
		img.Programs[dir+"/"+p] = "python"
	}
	for _, p := range []string{"pip3", "pip"} {
		img.Programs[dir+"/"+p] = "pip"
	}
}

func pythonVersion(tag string) string {
	if v, ok := pythonVersions[versionPrefix.FindString(tag)]; ok {
		return v
	}
	return pythonVersions["3"]
}

func nodeVersion(tag string) string {
	word, _, _ := strings.Cut(tag, "-")
	if v, ok := nodeVersions[word]; ok {
		return v
	}
	major, _, _ := strings.Cut(word, ".")
	if v, ok := nodeVersions[major]; ok {
		return v
	}
	return nodeVersions["latest"]
}
