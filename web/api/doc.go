// Package api is the demo's in-memory REST API, standing in for the remote
// servers the datafetch examples talk to. It is an [http.Handler]; the demo
// server mounts it under a prefix. Tests use it through
// test/fixture/testapi, which adds the routes only tests need (legacy
// articles, /post, /linked/posts, the misbehaving /bad/ routes) through
// the extension points of [Server.HandleState], [Server.HandleRaw] and
// [Server.OnReset].
//
// All state lives in memory and starts from deterministic seed data, so two
// servers built with the same [Options] answer alike. Every response is JSON
// (Content-Type "application/json; charset=utf-8"), errors are
// {"error": "..."} and every response carries permissive CORS headers,
// because browser tests load from another origin.
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
//
// Articles are a [Collection]: the create, replace, patch and delete
// handlers are shared with any other collection (the test API's legacy
// articles). The trailing slash of /current_user/ and the birthday routes
// is optional. Unknown ids answer 404 {"error": "article 999 not found"};
// a body that is not a JSON object answers 400.
//
// # Test controls
//
// Tests, and the demo's network controls, steer the server through methods
// on [Server] or, from a browser, through the equivalent routes under
// /_control/ (see [Server.ServeHTTP]). The demo's end-to-end tests hold
// requests through them (/_control/hold) on the demo server itself, so the
// holds stay here rather than in the test API. Requests to /_control/ and CORS preflight requests are never counted,
// delayed, held or failed.
package api
