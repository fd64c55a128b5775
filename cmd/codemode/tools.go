package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/seed11a79d2d/codemode/cmd/codemode/internal/config"
	"github.com/seed11a79d2d/codemode/redisstore"
	"github.com/seed11a79d2d/codemode/store"
)

const toolsSynopsis = "approve|pins --config FILE [--store URL [--store-key-file FILE]] [--hash HASH] [--json] [ID...]"

// toolsCommand reads and approves the tool pins serve keeps (see
// docs/config.md, trust): "pins" lists them, quarantined ones with what
// changed; "approve ID..." makes each quarantined tool's changed definition
// its pin, so that serve publishes it again (within seconds, or at its next
// start). It uses the pin store serve uses with the same configuration and
// flags: the run store's Redis, else the file beside the configuration.
func toolsCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("tools", toolsSynopsis, stderr)
	configPath := fs.String("config", "", "the JSON5 configuration `file` serve runs with")
	storeURL := fs.String("store", "", "the Redis run store serve runs with (`URL`), over the config's store")
	storeKey := fs.String("store-key-file", "", "with --store, the run store's signing key `file`; else $"+storeKeyEnv)
	hash := fs.String("hash", "", "approve only if the changed definition has this `hash` (as pins or serve's log shows it, in full or its first 12 digits)")
	asJSON := fs.Bool("json", false, "pins: print the pins as JSON")
	positional, err := parseFlags(fs, args)
	if err != nil {
		return flagStatus(err)
	}
	if len(positional) == 0 {
		return usageError(stderr, "tools", "name a subcommand: approve or pins")
	}
	sub, ids := positional[0], positional[1:]
	switch {
	case sub != "approve" && sub != "pins":
		return usageError(stderr, "tools", "unknown subcommand %q (approve or pins)", sub)
	case *configPath == "":
		return usageError(stderr, "tools", "--config is required: pins belong to a configuration")
	case sub == "approve" && len(ids) == 0:
		return usageError(stderr, "tools", "approve: name the tool ids to approve (codemode tools pins lists them)")
	case sub == "approve" && *hash != "" && len(ids) != 1:
		return usageError(stderr, "tools", "approve: --hash applies to one tool id")
	case sub == "pins" && len(ids) > 0:
		return usageError(stderr, "tools", "pins: unexpected argument %q", ids[0])
	}
	f, err := config.Load(*configPath)
	if err != nil {
		return reportSetupError(stderr, "tools", fmt.Errorf("%w: %w", errConfig, err))
	}
	spec := f.Store
	if *storeURL != "" {
		spec = &config.Store{URL: *storeURL, KeyFile: *storeKey}
	}
	var rs *redisstore.Store
	if spec != nil {
		if rs, err = openStore(ctx, spec, &serveSettings{}); err != nil {
			return reportSetupError(stderr, "tools", err)
		}
		defer rs.Close()
	}
	pins := pinStore(*configPath, rs)
	if sub == "pins" {
		return listPins(ctx, pins, *asJSON, stdout, stderr)
	}
	status := exitOK
	for _, id := range ids {
		want := *hash
		if p, ok, err := pins.Get(ctx, id); err == nil && ok && p.Changed != nil && want != "" && strings.HasPrefix(p.Changed.Hash, want) {
			want = p.Changed.Hash // a prefix as the log shows it
		}
		pin, err := store.Approve(ctx, pins, id, want)
		if err != nil {
			fmt.Fprintf(stderr, "codemode tools: approve %v\n", err)
			status = exitFailed
			continue
		}
		fmt.Fprintf(stdout, "approved %s: pinned %s\n", id, short12(pin.Hash))
	}
	return status
}

func listPins(ctx context.Context, pins store.Pins, asJSON bool, stdout, stderr io.Writer) int {
	all, err := pins.List(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "codemode tools: %v\n", err)
		return exitFailed
	}
	if asJSON {
		b, _ := json.MarshalIndent(all, "", "  ")
		fmt.Fprintln(stdout, string(b))
		return exitOK
	}
	for _, p := range all {
		switch {
		case p.Changed == nil:
			fmt.Fprintf(stdout, "%s\tpinned %s\n", p.ID, short12(p.Hash))
		case p.Hash == "":
			fmt.Fprintf(stdout, "%s\tQUARANTINED: new (trust strict), definition %s\n", p.ID, short12(p.Changed.Hash))
		default:
			fmt.Fprintf(stdout, "%s\tQUARANTINED: %s changed, pinned %s, now %s\n", p.ID,
				strings.Join(p.ChangedFields(*p.Changed), ", "), short12(p.Hash), short12(p.Changed.Hash))
		}
	}
	return exitOK
}

func short12(h string) string { return h[:min(len(h), 12)] }
