// Package api is an in-memory REST API that stands in for the remote servers
// the datafetch examples talk to. It is an [http.Handler], so Go tests mount it
// on an [net/http/httptest.Server], the fixtureserver command serves it to
// browser and Node.js tests, and the demo mounts it under a prefix.
//
// All state lives in memory and starts from deterministic seed data, so two
// servers built with the same [Options] answer alike. Every response is JSON
// (Content-Type "application/json; charset=utf-8") unless a /bad/ route says
// otherwise, errors are {"error": "..."} and every response carries permissive
// CORS headers, because browser tests load from another origin.
//
// # Resources
//
//	GET    /comments                 all comments (?postId=N filters)
//	GET    /comments/{id}            one comment
//	GET    /wrapped/comments         {"data": [comment...]}
//	GET    /wrapped/comments/{id}    {"data": comment}
//	GET    /profiles                 all profiles
//	GET    /profiles/{id}            one profile (string id)
//	GET    /current_user/            the logged-in user (user 1)
//	GET    /users                    all users
//	GET    /users/{id}               one user
//	POST   /users/{id}/make_manager  sets isManager, answers the user
//	GET    /articles                 all articles
//	GET    /articles/{id}            one article
//	POST   /articles                 create; 201, server-assigned id "101", "102", ...
//	PUT    /articles/{id}            replace the editable fields
//	PATCH  /articles/{id}            change only the fields sent
//	DELETE /articles/{id}            204, empty body
//	GET    /article/                 legacy articles (numeric ids)
//	GET    /article/{id}             one legacy article
//	POST   /article/                 create; 201, server-assigned id 101, 102, ...
//	PUT    /article/{id}             replace
//	PATCH  /article/{id}             partial update
//	DELETE /article/{id}             204, empty body
//	GET    /api/count                {"count": n, "updatedAt": ISO}
//	POST   /api/count/increment      count+1; body {"updatedAt": ms} is optional
//	GET    /post?page=N              {"results", "nextPage": "N+1" or "", "lastPage"}
//	GET    /posts?page=TOKEN         {"results", "nextPage", "prevPage"}; tokens are
//	                                 relative URLs such as "/posts?page=2", or null
//	GET    /posts/{id}               one post
//	GET    /linked/posts?page=N      bare array; next/prev pages in the Link header
//	GET    /api/birthdays/           all birthdays
//	GET    /api/birthdays/{id}       one birthday
//	GET    /api/birthdays/upcoming/  {"withinSevenDays": [...], "withinThirtyDays": [...]}
//
// The trailing slash of /current_user/, /article/ and the birthday routes is
// optional. Unknown ids answer 404 {"error": "article 999 not found"}; a body
// that is not a JSON object answers 400.
//
// # Bad responses
//
// The /bad/ routes misbehave on purpose, for error-handling tests: /bad/html
// (200 text/html), /bad/truncated (200, JSON cut short), /bad/empty (204),
// /bad/status/{code} (that status, JSON error body), /bad/nopk (a comment
// without an id), /bad/hang (never answers until the client gives up or the
// server is closed) and /bad/close (half a body, then the connection closes).
// More for the bad-input tests: /bad/body?status=&type=&text=&bom=1 (any
// body), /bad/deep?n= (a record holding n nested arrays), /bad/huge?mb=&tail=
// (a list of about mb megabytes, optionally ending in a record without id or
// cut short), /bad/dupes (a list repeating an id), /bad/cyclic?n= (users that
// all reference each other), /bad/chain?n= (users each referencing the next),
// /bad/slow?ms=&id= (a comment after a delay) and /bad/flaky?id= (503 on
// every other request to the same URL).
//
// # Test controls
//
// Tests steer the server through methods on [Server] or, from a browser,
// through the equivalent routes under /_control/ (see [Server.ServeHTTP]).
// Requests to /_control/ and CORS preflight requests are never counted,
// delayed, held or failed.
package api
