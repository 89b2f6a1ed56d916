//go:build tools

// Package tools pins the versions of the developer tools that build.sh
// builds (into .tools/bin). It is a separate module so that the tools'
// dependencies never leak into the library's go.mod.
//
//	wasmbrowsertest: runs `GOOS=js GOARCH=wasm go test` in headless Chromium.
//	chromedp is pinned to v0.16.0: wasmbrowsertest v0.11.0 does not compile
//	with v0.17+, and with its own default chromedp it logs harmless
//	"unknown IPAddressSpace value: Loopback" errors.
package tools

import (
	_ "github.com/agnivade/wasmbrowsertest"
)
