package provider

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// ReadKey reads the API key: KeyFile's content or the value lookup gives
// for KeyEnv, its trailing newline trimmed; "" when the config names
// neither. lookup is os.LookupEnv, or a function that also removes the
// variable so that no process started later inherits it. The errors name
// the file or variable, never the key.
func (c *Config) ReadKey(lookup func(string) (string, bool)) (string, error) {
	var key, source string
	switch {
	case c.KeyFile != "":
		b, err := os.ReadFile(c.KeyFile)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the path is said once, below
			}
			return "", fmt.Errorf("tools.swarm.provider.keyFile: cannot read %s: %w", c.KeyFile, err)
		}
		key, source = string(b), "tools.swarm.provider.keyFile "+c.KeyFile
	case c.KeyEnv != "":
		v, ok := lookup(c.KeyEnv)
		if !ok {
			return "", fmt.Errorf("tools.swarm.provider.keyEnv: $%s is not set", c.KeyEnv)
		}
		key, source = v, "tools.swarm.provider.keyEnv $"+c.KeyEnv
	default:
		return "", nil
	}
	key = strings.TrimRight(key, "\r\n")
	switch {
	case key == "":
		return "", fmt.Errorf("%s is empty", source)
	case strings.ContainsFunc(key, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return "", fmt.Errorf("%s holds control characters (a key is one line)", source)
	}
	return key, nil
}
