package provider

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// Each child of ask("p") holds 102 tokens (2 of input, maxTokens 100) and
// the fake reports 200 spent (150 in, 50 out).
var spends = step{in: 150, out: 50}

// Children run until the cell's budget cannot hold one more; the session's
// budget then stops a second cell early.
func TestTokenBudgets(t *testing.T) {
	f := newFake(t, OpenAI, spends)
	c, _ := f.client(Config{Budget: Budget{CellTokens: 1000, SessionTokens: 1500}}, "")
	run := func(cell string) (n int, err error) {
		for {
			req := ask("p")
			req.Cell = cell
			if _, err := c.Run(context.Background(), req); err != nil {
				return n, err
			}
			n++
		}
	}
	n, err := run("c1")
	if n != 5 || err == nil || err.Error() != "the cell's sub-agent token budget is spent: 1000 of tools.swarm.provider.budget.cellTokens (1000) used or held, and this child may take 102" {
		t.Fatalf("%d then %v", n, err)
	}
	n, err = run("c2")
	if n != 2 || err == nil || !strings.HasPrefix(err.Error(), "the session's sub-agent token budget is spent: 1400 of tools.swarm.provider.budget.sessionTokens (1500)") {
		t.Fatalf("%d then %v", n, err)
	}
	// Another session has a budget of its own.
	req := ask("p")
	req.Session, req.Cell = "s2", "c3"
	if _, err := c.Run(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if got := len(f.requests()); got != 8 {
		t.Fatalf("%d requests reached the provider", got)
	}
}

// Children running at once cannot overspend together: each holds its most
// before it is sent, so with 20 started only 9 holds of 102 fit in 1000.
func TestBudgetHoldsConcurrentChildren(t *testing.T) {
	gate := make(chan struct{})
	f := newFake(t, Anthropic, step{in: 150, out: 50, block: gate})
	c, _ := f.client(Config{Budget: Budget{CellTokens: 1000}}, "")
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.Run(context.Background(), ask("p"))
			errs <- err
		}()
	}
	refused := 0
	for refused < 11 {
		if err := <-errs; err == nil || !strings.Contains(err.Error(), "token budget is spent") {
			t.Fatalf("before the gate opens: %v", err)
		}
		refused++
	}
	for deadline := time.Now().Add(30 * time.Second); len(f.requests()) < 9 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	close(gate)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("a held child failed: %v", err)
		}
	}
	if got := len(f.requests()); got != 9 {
		t.Fatalf("%d requests reached the provider", got)
	}
	// They spent 1800: the next child is refused.
	if _, err := c.Run(context.Background(), ask("p")); err == nil || !strings.HasPrefix(err.Error(), "the cell's sub-agent token budget is spent: 1800 of") {
		t.Fatalf("%v", err)
	}
}

// A cost budget prices tokens in and out.
func TestCostBudget(t *testing.T) {
	f := newFake(t, OpenAI, spends)
	c, _ := f.client(Config{Budget: Budget{CellCost: 0.001}, Price: &Price{Input: 1, Output: 2}}, "")
	n := 0
	var err error
	for ; err == nil; n++ {
		_, err = c.Run(context.Background(), ask("p"))
	}
	if n-1 != 4 || !strings.HasPrefix(err.Error(), "the cell's sub-agent cost budget is spent: 0.0010 of tools.swarm.provider.budget.cellCost (0.001)") {
		t.Fatalf("%d then %v", n-1, err)
	}
}

// A provider that reports no usage is charged the estimate of the input
// and the answer, so a budget still ends.
func TestBudgetWithoutReportedUsage(t *testing.T) {
	f := newFake(t, OpenAI, step{})
	c, _ := f.client(Config{Budget: Budget{CellTokens: 110}}, "")
	n := 0
	for ; n < 100; n++ {
		if _, err := c.Run(context.Background(), ask("p")); err != nil {
			break
		}
	}
	if n != 3 {
		t.Fatalf("%d children ran", n)
	}
}

// A failed child is charged only what the provider reported, and its hold
// is given back.
func TestBudgetReleasedOnFailure(t *testing.T) {
	f := newFake(t, OpenAI, step{status: 400}, step{status: 400}, spends)
	c, _ := f.client(Config{Budget: Budget{CellTokens: 300}}, "")
	for range 2 {
		if _, err := c.Run(context.Background(), ask("p")); err == nil {
			t.Fatal("no error")
		}
	}
	if _, err := c.Run(context.Background(), ask("p")); err != nil {
		t.Fatalf("the failures kept their holds: %v", err)
	}
}

// The ledger forgets the least recently used past maxAccounts.
func TestLedgerBounded(t *testing.T) {
	l := ledger{budget: Budget{CellTokens: 10}}
	for i := range maxAccounts + 10 {
		release, err := l.hold(string(rune(i)), "s", usage{tokens: 1})
		if err != nil {
			t.Fatal(err)
		}
		release(usage{tokens: 1})
	}
	if l.cells.order.Len() != maxAccounts || len(l.cells.byKey) != maxAccounts {
		t.Fatalf("%d cells kept", l.cells.order.Len())
	}
}
