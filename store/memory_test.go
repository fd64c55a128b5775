package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestMemoryStoreBoundsTheProcess opens session after session, as a client
// could, until the memory store's total bound refuses.
func TestMemoryStoreBoundsTheProcess(t *testing.T) {
	ctx := context.Background()
	m := NewMemorySessions()
	value := json.RawMessage(`"` + strings.Repeat("v", MaxStateValueBytes-2) + `"`)
	var err error
	n := 0
	for ; n < 2*memoryStateBytes/MaxStateValueBytes && err == nil; n++ {
		err = m.Store(ctx, Session{"k", fmt.Sprint(n)}, "key", value)
	}
	if err == nil || !strings.Contains(err.Error(), "this process holds") || n > memoryStateBytes/MaxStateValueBytes+1 {
		t.Fatalf("after %d sessions: %v", n, err)
	}
	if err := m.Drop(ctx, Session{"k", "0"}); err != nil {
		t.Fatal(err)
	}
	if err := m.Store(ctx, Session{"k", "new"}, "key", value); err != nil {
		t.Fatalf("an ended session's bytes were not freed: %v", err)
	}
}

// TestStoreAfterTheSessionEnded: a leg still running when its session ends
// cannot bring the session's state back.
func TestStoreAfterTheSessionEnded(t *testing.T) {
	ctx := context.Background()
	m := NewMemorySessions()
	s := Session{"k", "s"}
	if err := m.Store(ctx, s, "a", json.RawMessage(`1`)); err != nil {
		t.Fatal(err)
	}
	m.Drop(ctx, s)
	if err := m.Store(ctx, s, "b", json.RawMessage(`2`)); err == nil || !strings.Contains(err.Error(), "the session has ended") {
		t.Fatalf("a store after the end: %v", err)
	}
	if _, ok, _ := m.Load(ctx, s, "a"); ok {
		t.Fatal("the dropped value is back")
	}
}

// TestStoreCountsEveryEntry: a flood of tiny values is bounded by what they
// cost, not by their bytes alone.
func TestStoreCountsEveryEntry(t *testing.T) {
	ctx := context.Background()
	m := NewMemorySessions()
	n := 0
	for ; n < MaxStateSessionBytes; n++ {
		if m.Store(ctx, Session{"k", "s"}, fmt.Sprint(n), json.RawMessage(`0`)) != nil {
			break
		}
	}
	if n > MaxStateSessionBytes/StateEntryBytes {
		t.Fatalf("%d one-byte values fit in a session", n)
	}
}

// TestMemoryAccountingHolds: after stores that race for the session's bound,
// overwrite one key and take a wide key, what the session counts is what it
// holds. (The cells that make these stores are host's
// TestAttackStoreRaceAtTheSessionBound.)
func TestMemoryAccountingHolds(t *testing.T) {
	ctx := context.Background()
	m := NewMemorySessions().(*memorySessions)
	s := Session{"k", "s"}
	big := json.RawMessage(`"` + strings.Repeat("x", 250*1024) + `"`)
	took := make(chan string, 16)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			if m.Store(ctx, s, fmt.Sprint("k", i), big) == nil {
				took <- fmt.Sprint("k", i)
			}
		})
	}
	wg.Wait()
	close(took)
	var kept []string
	for k := range took {
		kept = append(kept, k)
	}
	ok := len(kept)
	for i := range 20 { // overwriting one key over and over keeps one value's worth
		if err := m.Store(ctx, s, kept[0], json.RawMessage(fmt.Sprintf(`"%s%d"`, big[1:len(big)-1], i))); err != nil {
			t.Fatalf("overwrite %d: %v", i, err)
		}
	}
	if err := m.Store(ctx, s, strings.Repeat("\u4e00", 256), json.RawMessage(`1`)); err != nil {
		t.Fatalf("a wide key: %v", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	sv, total := m.sessions[s], 0
	for k, v := range sv.values {
		total += EntryCost(k, v)
	}
	if ok != 4 || total != sv.bytes || total > MaxStateSessionBytes {
		t.Fatalf("%d stores took; the session holds %d bytes, accounted %d, bound %d", ok, total, sv.bytes, MaxStateSessionBytes)
	}
}
