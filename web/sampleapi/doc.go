// Package sampleapi is the sample REST API: the resources of data-client's
// examples (comments, users, articles, a counter, paginated posts,
// birthdays, todos and a live price feed) on a [restserver.Server],
// standing in for the remote servers the datafetch examples talk to. The
// demo server (web/demo/server) mounts it under a prefix; the tests use it
// through test/fixture/testapi, which adds the routes only tests need
// (legacy articles, /post, /linked/posts, the misbehaving /bad/ routes)
// through the restserver's extension points.
//
// All state lives in memory and starts from deterministic seed data, so two
// servers built with the same [Options] answer alike. Every response is JSON
// (Content-Type "application/json; charset=utf-8") and errors are
// {"error": "..."}, as for every restserver.
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
//	GET    /api/count                {"count": n, "updatedAt": ISO}
//	POST   /api/count/increment      count+1; body {"updatedAt": ms} is optional
//	GET    /posts?page=TOKEN         {"results", "nextPage", "prevPage"}; tokens are
//	                                 relative URLs such as "/posts?page=2", or null
//	GET    /posts/{id}               one post
//	GET    /api/birthdays/           all birthdays
//	GET    /api/birthdays/{id}       one birthday
//	GET    /api/birthdays/upcoming/  {"withinSevenDays": [...], "withinThirtyDays": [...]}
//	GET    /todos?userId=N           todos (?userId filters); POST, PUT, PATCH, DELETE as for articles
//	GET    /tickers                  all prices of the live feed
//	GET    /tickers/{id}             one price
//	GET    /live                     Server-Sent Events: one message per price change
//
// Articles and todos are [restserver.Collection]s: the create, replace,
// patch and delete handlers are shared with any other collection (the test
// API's legacy articles). The trailing slash of /current_user/ and the birthday routes
// is optional. Unknown ids answer 404 {"error": "article 999 not found"};
// a body that is not a JSON object answers 400.
//
// # Test controls
//
// The restserver's test controls (see [restserver.Server.ServeHTTP]) plus
// those of the live feed: POST /_control/tick?count=N changes N prices
// ([Server.Tick]) and GET /_control/live counts the open /live streams and
// the messages sent ([Server.Live]). The demo's end-to-end tests hold
// requests (/_control/hold) on the demo server itself, which is why the
// controls are part of the API rather than of the test API.
package sampleapi
