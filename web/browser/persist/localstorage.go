//go:build js && wasm

package persist

import (
	"errors"
	"fmt"
	"syscall/js"
)

// LocalStorage returns the page's window.localStorage as a Storage. It
// fails where there is none (a worker) or where the browser refuses it
// (storage disabled: reading the property throws).
func LocalStorage() (s Storage, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("persist: localStorage is not available: %v", r)
		}
	}()
	ls := js.Global().Get("localStorage")
	if ls.Type() != js.TypeObject {
		return nil, errors.New("persist: there is no localStorage here")
	}
	return localStorage{ls}, nil
}

type localStorage struct{ v js.Value }

// call calls a method of localStorage, turning a JavaScript exception
// (quota exceeded, storage disabled) into an error.
func (s localStorage) call(method string, args ...any) (out js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("localStorage.%s: %v", method, r)
		}
	}()
	return s.v.Call(method, args...), nil
}

func (s localStorage) GetItem(key string) (string, bool, error) {
	v, err := s.call("getItem", key)
	if err != nil || v.Type() != js.TypeString {
		return "", false, err
	}
	return v.String(), true, nil
}

func (s localStorage) SetItem(key, text string) error {
	_, err := s.call("setItem", key, text)
	return err
}

func (s localStorage) RemoveItem(key string) error {
	_, err := s.call("removeItem", key)
	return err
}
