package ui

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/datafetch/datafetch/core/rest"
)

// controlClient calls the test controls of the REST API (its /_control/
// routes), which the network controls of the demo are made of.
type controlClient struct {
	// prefix is the URL the API is mounted at.
	prefix string
}

// post sends POST /_control/<path>?<query> and checks for a 2xx answer.
func (c *controlClient) post(ctx context.Context, path string, query url.Values) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	u := c.prefix + "/_control/" + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	resp, err := rest.Do(ctx, &rest.Request{Method: "POST", URL: u})
	if err != nil {
		return err
	}
	if !resp.OK() {
		return fmt.Errorf("POST %s: %d %s: %.512s", u, resp.Status, resp.StatusText, resp.Body)
	}
	return nil
}

// setLatency makes every API request wait ms milliseconds, or, when random
// is set, a random time from zero to ms drawn for each request.
func (c *controlClient) setLatency(ctx context.Context, ms int, random bool) error {
	q := url.Values{"ms": {strconv.Itoa(ms)}, "jitter": {"0"}}
	if random {
		q = url.Values{"ms": {"0"}, "jitter": {strconv.Itoa(ms)}}
	}
	return c.post(ctx, "delay", q)
}

// failNext makes the next mutation fail with a 500.
func (c *controlClient) failNext(ctx context.Context) error {
	return c.post(ctx, "fail-next", url.Values{"count": {"1"}, "status": {"500"}})
}

// failNextGets makes the next n reads fail with a 503, which the
// controller retries.
func (c *controlClient) failNextGets(ctx context.Context, n int) error {
	return c.post(ctx, "fail-next-get", url.Values{"count": {strconv.Itoa(n)}, "status": {"503"}})
}

// reset restores the API's seed data and clears its controls.
func (c *controlClient) reset(ctx context.Context) error {
	return c.post(ctx, "reset", nil)
}
