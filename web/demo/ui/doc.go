// Package ui is the go-app demo of datafetch: the pages, the layout, the
// network controls and the live cache inspector. Every page reads and
// mutates the REST API of package sampleapi through the endpoints of package
// resources and one controller, with package goapp binding results to
// components. The same components run in the browser (web/demo/app, built to
// app.wasm) and on the demo server, which pre-renders them (web/demo/server).
package ui
