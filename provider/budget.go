package provider

import (
	"container/list"
	"fmt"
	"sync"
)

// maxAccounts bounds the cells and the sessions the ledger remembers; past
// it the least recently used is forgotten. A forgotten session's budget
// starts again, as a new session's would: whoever can open sessions gets a
// budget per session anyway.
const maxAccounts = 4096

// usage is what a child spent or may spend.
type usage struct {
	tokens int64
	cost   float64
}

func (u usage) add(v usage) usage { return usage{u.tokens + v.tokens, u.cost + v.cost} }
func (u usage) sub(v usage) usage { return usage{u.tokens - v.tokens, u.cost - v.cost} }

// account is a cell's or a session's: spent is what the provider reported,
// held what the children in flight may still spend.
type account struct {
	key         string
	spent, held usage
}

// ledger keeps the budgets. A child holds its most (its estimated input
// and maxTokens of output) before it is sent, and is refused when that
// would pass a budget, so children running at once cannot overspend it
// together; when it answers, what the provider reports replaces the hold.
type ledger struct {
	budget Budget
	mu     sync.Mutex
	cells  accounts
	sess   accounts
}

type accounts struct {
	byKey map[string]*list.Element
	order list.List // front: most recently used
}

func (a *accounts) get(key string) *account {
	if a.byKey == nil {
		a.byKey = map[string]*list.Element{}
	}
	if e, ok := a.byKey[key]; ok {
		a.order.MoveToFront(e)
		return e.Value.(*account)
	}
	if a.order.Len() >= maxAccounts {
		last := a.order.Back()
		delete(a.byKey, last.Value.(*account).key)
		a.order.Remove(last)
	}
	acc := &account{key: key}
	a.byKey[key] = a.order.PushFront(acc)
	return acc
}

// hold reserves most for a child of the cell and session, or says which
// budget it would pass. The release function takes the hold back and
// charges what was spent.
func (l *ledger) hold(cell, session string, most usage) (release func(spent usage), _ error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c, s := l.cells.get(cell), l.sess.get(session)
	checks := []struct {
		acc   *account
		limit usage
		scope string
	}{{c, usage{l.budget.CellTokens, l.budget.CellCost}, "cell"}, {s, usage{l.budget.SessionTokens, l.budget.SessionCost}, "session"}}
	for _, k := range checks {
		used := k.acc.spent.add(k.acc.held)
		if k.limit.tokens > 0 && used.tokens+most.tokens > k.limit.tokens {
			return nil, fmt.Errorf("the %s's sub-agent token budget is spent: %d of tools.swarm.provider.budget.%sTokens (%d) used or held, and this child may take %d",
				k.scope, used.tokens, k.scope, k.limit.tokens, most.tokens)
		}
		if k.limit.cost > 0 && used.cost+most.cost > k.limit.cost {
			return nil, fmt.Errorf("the %s's sub-agent cost budget is spent: %.4f of tools.swarm.provider.budget.%sCost (%g) used or held, and this child may cost %.4f",
				k.scope, used.cost, k.scope, k.limit.cost, most.cost)
		}
	}
	c.held, s.held = c.held.add(most), s.held.add(most)
	var once sync.Once
	return func(spent usage) {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			for _, a := range []*account{c, s} {
				a.held, a.spent = a.held.sub(most), a.spent.add(spent)
			}
		})
	}, nil
}
