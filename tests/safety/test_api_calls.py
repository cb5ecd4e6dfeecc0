"""Data destroyed through an API call made by any client: an HTTP method given to load testers and
other clients (``hey -m``, ``oha -m``, ``nghttp -H ':method: DELETE'``, libwww-perl's ``DELETE URL``), gRPC
methods named for destroying (``grpcurl … pkg.Cache/PurgeAll``, ``ghz --call``), GraphQL mutations that
delete, sent by any client or on standard input."""
from __future__ import annotations

from tests.safety.forms import each_form
from tests.safety.test_long_tail import judged, reaches, stays_quiet


@each_form("command", [
    'hey -m POST -n 1 http://es.internal:9200/logs/_delete_by_query',
    'oha -m PUT -n 1 http://db.internal:8080/api/truncate',
    'hey -m DELETE http://es.internal:9200/orders',
    'oha -n 1 -m DELETE https://registry.internal/v2/app/manifests/sha256:abc123',
    "nghttp -H ':method: DELETE' https://api.internal/v1/buckets/prod",
    'lwp-request -m DELETE http://couch.internal:5984/customers',
    'DELETE http://couch.internal:5984/customers',
    'POST http://prom.internal:9090/api/v1/admin/tsdb/delete_series?match[]={job="node"} < /dev/null',
    'ab -n 1 -m DELETE http://api.internal/users/all',
    'bombardier -n 1 -m DELETE http://api.internal/v1/indexes/products',
    'httpx -m DELETE https://api.internal/v1/projects/alpha',
    'restish delete https://api.internal/v1/databases/main',
    "echo 'DELETE http://api.internal/v1/users' | vegeta attack -rate 1 -duration 1s",
    'plow -m DELETE -n 1 http://api.internal/v1/collections/events',
    'curlie DELETE https://api.internal/v1/indices/logs',
    'hurl --variable id=1 --request DELETE https://api.internal/v1/tenants/acme',
    "h2load -n 1 -H ':method: DELETE' https://api.internal/v1/tables/users",
])
def test_an_http_method_given_to_any_client_is_judged_by_its_address(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    "grpcurl -plaintext -d '{}' localhost:50051 cache.v1.CacheService/PurgeAll",
    'grpcurl -d \'{"name":"prod"}\' api.internal:443 db.admin.v1.Admin/DropDatabase',
    'ghz --insecure --call store.Store.DeleteAll -n 1 localhost:50051',
    'grpc_cli call localhost:50051 kv.KV.Truncate \'table: "users"\'',
    'evans --host localhost -p 50051 cli call pkg.UserService.DeleteUser --file req.json',
    "buf curl --data '{}' https://api.internal/queue.v1.QueueService/FlushQueue",
    'grpcurl -plaintext localhost:9090 cluster.Cluster/ResetCluster',
    'grpcurl -plaintext -d \'{"id":"42"}\' localhost:9090 users.Users/RemoveUser',
    'ghz --call index.Index/WipeIndex --insecure -n 1 localhost:50051',
])
def test_an_rpc_method_named_for_destroying_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    'curl -X POST -H \'Content-Type: application/json\' -d \'{"query":"mutation { productDelete(input: '
    '{id: \\"gid://shopify/Product/1\\"}) { deletedProductId } }"}\' https://shop.example.com/admin/api/graphql.json',
    "http POST https://api.example.com/graphql query='mutation { deleteUser(id: 42) { id } }'",
    'gh api graphql -f query=\'mutation { deleteRepository(input: {repositoryId: "R_1"}) { clientMutationId } }\'',
    'curl -s https://api.example.com/graphql -H \'Content-Type: application/json\' --data-binary @- '
    '<<< \'{"query":"mutation { deleteAllPosts { count } }"}\'',
    "gq https://api.example.com/graphql -q 'mutation { removeProject(id: 7) { ok } }'",
    "graphqurl https://api.example.com/v1/graphql -q 'mutation { delete_users(where: {}) { affected_rows } }'",
    'xh POST api.example.com/graphql query=\'mutation DropIt { dropTable(name: "orders") { ok } }\'',
    'curl -d \'{"query":"mutation{destroyWorkspace(id:\\"w1\\"){id}}"}\' https://api.example.com/graphql',
    'wget --post-data=\'{"query":"mutation { purgeCache(all: true) { ok } }"}\' https://api.example.com/graphql',
])
def test_a_graphql_mutation_that_deletes_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    'hey -n 1000 -c 50 http://localhost:8080/',
    'hey -m POST -d \'{"a":1}\' http://localhost:8080/items',
    'oha -z 10s http://localhost:3000/health',
    'ab -n 100 -c 10 http://localhost/',
    'bombardier -c 10 -n 1000 http://localhost:8080',
    'nghttp -nv https://nghttp2.org',
    'lwp-request -m GET http://example.com/',
    'GET http://example.com/',
    'HEAD http://example.com/',
    'httpx -m GET https://example.com',
    'restish get https://api.example.com/v1/items',
    'grpcurl -plaintext localhost:50051 list',
    'grpcurl -plaintext localhost:50051 describe cache.v1.CacheService',
    'grpcurl -plaintext -d \'{"id":1}\' localhost:50051 users.Users/GetUser',
    'ghz --insecure --call helloworld.Greeter.SayHello -n 1000 localhost:50051',
    'grpc_cli ls localhost:50051',
    'curl -d \'{"query":"{ users { id name } }"}\' https://api.example.com/graphql',
    'curl -d \'{"query":"mutation { createUser(name: \\"a\\") { id } }"}\' https://api.example.com/graphql',
    "gh api graphql -f query='query { viewer { login } }'",
    'gh api graphql -f query=\'mutation { addStar(input: {starrableId: "x"}) { clientMutationId } }\'',
    "git commit -m 'DELETE endpoint for https://api.example.com/users'",
    "echo 'mutation { deleteUser(id: 1) { id } }' > docs/examples/delete.graphql",
    'vegeta attack -targets targets.txt -rate 10 -duration 5s',
    'java -cp app.jar com.example.admin.Admin/DropDatabase',
])
def test_load_tests_reads_describes_and_other_mutations_stay_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)


@each_form("command", [
    'hey -m DELETE -n 1 https://api.internal/v1/users/all',
    'oha -m DELETE https://search.internal:9200/_all',
    'ab -m DELETE http://localhost:8080/api/v1/namespaces/prod',
    'bombardier -m POST -n 1 http://localhost:9200/products/_delete_by_query',
    'PUT http://localhost:5984/_replicator/wipe < /dev/null',
    'lwp-request -m POST http://localhost:8086/api/v2/delete',
    'wrk -s delete.lua http://localhost:8080/api/v1/records',
    'httpx --method DELETE https://api.internal/v1/tenants/acme',
    'xh delete :8080/api/v1/tables/users',
    'grpcurl -plaintext -d \'{"bucket":"logs"}\' localhost:50051 storage.v1.Storage/DeleteBucket',
    "grpcurl -plaintext -d '{}' localhost:8080 etcdserverpb.KV/DeleteRange",
    'grpcurl -plaintext localhost:50051 admin.Admin/TruncateTables',
    "grpc_cli call localhost:50051 cache.Cache.EvictAll ''",
    'evans -r cli call --host localhost --port 50051 db.Db.DropCollection',
    'ghz --insecure -n 1 --call jobs.Queue/PurgeJobs 127.0.0.1:9000',
    'curl https://api.github.com/graphql -H "Authorization: bearer $T"'
    ' -d \'{"query":"mutation { deleteProjectV2(input:{projectId:\\"P_1\\"}) { clientMutationId } }"}\'',
    'http https://api.linear.app/graphql query=\'mutation { issueDelete(id: "ISS-1") { success } }\'',
    "gh api graphql -F id=R_1 -f query='mutation($id: ID!) { deleteRef(input: {refId: $id}) { clientMutationId } }'",
    "hasura-cli graphql execute 'mutation { delete_orders(where: {}) { affected_rows } }'",
    'curl -s -X POST https://api.example.com/graphql -H \'Content-Type: application/json\''
    ' -d @- <<\'EOF\'\n{"query": "mutation { removeAllMembers(teamId: 3) { ok } }"}\nEOF',
    'echo \'{"query":"mutation { wipeDatabase { ok } }"}\' | curl -d @- https://api.example.com/graphql',
])
def test_a_second_wave_of_api_calls_is_flagged(command: str) -> None:
    assert reaches(command), judged(command)


@each_form("command", [
    'hey -n 100 https://api.internal/v1/users',
    'ab -n 100 http://localhost:8080/',
    'k6 run script.js',
    'wrk -t2 -c10 -d5s http://localhost:8080/',
    "grpcurl -plaintext -d '{}' localhost:50051 storage.v1.Storage/ListBuckets",
    'ghz --insecure --call jobs.Queue/Enqueue -n 100 127.0.0.1:9000',
    'curl -d \'{"query":"mutation { createIssue(title: \\"x\\") { id } }"}\' https://api.example.com/graphql',
])
def test_a_second_wave_of_reads_and_loads_stays_quiet(command: str) -> None:
    assert stays_quiet(command), judged(command)
