module github.com/datafetch/datafetch

go 1.26

require (
	github.com/andybalholm/brotli v1.3.0
	github.com/maxence-charriere/go-app/v10 v10.1.11
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/google/uuid v1.6.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
