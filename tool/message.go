package tool

import "fmt"

// Message is an error whose text the model reads as written: the
// contract's messages are sentences, with capitals and full stops, which
// Go's error strings are not, so they are kept apart from errors meant for
// Go callers. Two Messages of the same text are the same error to
// [errors.Is].
type Message string

func (m Message) Error() string { return string(m) }

// Messagef formats a [Message].
func Messagef(format string, args ...any) error { return Message(fmt.Sprintf(format, args...)) }
