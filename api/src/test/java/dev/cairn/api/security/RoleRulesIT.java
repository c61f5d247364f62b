package dev.cairn.api.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;

/**
 * The URL rules of {@link SecurityConfiguration}, for every role against a representative request of
 * each kind: reading, reading with a body, submitting, administering, and the metrics. A request the
 * rules let through meets its resource, which answers with what it makes of it (an empty body is a
 * 400, an unknown name a 404), never 401 or 403.
 */
class RoleRulesIT extends ApiTest {

    /** A request and the least role that may make it. */
    record Rule(String method, String path, Role needs) {
        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    static final List<Rule> RULES = List.of(
            new Rule("GET", "/api/v1/nodes", Role.READ),
            new Rule("HEAD", "/api/v1/nodes/0190c1a2", Role.READ),
            new Rule("GET", "/api/v1/computers", Role.READ),
            new Rule("POST", "/api/v1/query", Role.READ),
            new Rule("POST", "/api/v1/processes/explain-cache", Role.READ),
            new Rule("GET", "/api/v1/archive", Role.READ),
            new Rule("POST", "/api/v1/archive/inspection", Role.READ),
            new Rule("GET", "/actuator/prometheus", Role.READ),
            new Rule("POST", "/api/v1/processes", Role.SUBMIT),
            new Rule("PATCH", "/api/v1/nodes/0190c1a2", Role.SUBMIT),
            new Rule("DELETE", "/api/v1/groups/runs", Role.SUBMIT),
            new Rule("POST", "/api/v1/computers", Role.ADMIN),
            new Rule("DELETE", "/api/v1/codes/bash", Role.ADMIN),
            new Rule("GET", "/api/v1/users", Role.ADMIN),
            new Rule("POST", "/api/v1/tokens", Role.ADMIN),
            new Rule("POST", "/api/v1/archive", Role.ADMIN));

    /** What needs no token at all. */
    static final List<String> OPEN = List.of(
            "/api/v1/server",
            "/actuator/health",
            "/actuator/health/liveness",
            "/v3/api-docs",
            "/swagger-ui/index.html");

    @Test
    void withoutATokenEveryRuleAnswers401AndTheOpenPathsAnswer() {
        Api anonymous = api(null);
        for (Rule rule : RULES) {
            Api.Response r = send(anonymous, rule);
            assertEquals(401, r.status(), rule + ": " + r);
            assertEquals("Bearer", r.header("WWW-Authenticate"), rule.toString());
            if (!rule.method().equals("HEAD")) {
                assertEquals(
                        "urn:cairn:problem:unauthenticated",
                        r.json().get("type").asString(),
                        rule.toString());
            }
        }
        for (String path : OPEN) {
            Api.Response r = anonymous.get(path);
            assertEquals(200, r.status(), path + ": " + r);
        }
    }

    @Test
    void eachRoleMakesWhatItsRoleAndTheRolesBelowAllowAndIsRefusedTheRest() {
        Map<Role, Api> as = Map.of(
                Role.READ,
                api(token(Role.READ)),
                Role.SUBMIT,
                api(token(Role.SUBMIT)),
                Role.ADMIN,
                api(token(Role.ADMIN)));
        for (Role role : Role.values()) {
            for (Rule rule : RULES) {
                Api.Response r = send(as.get(role), rule);
                String what = role.value() + " " + rule + ": " + r;
                if (role.compareTo(rule.needs()) >= 0) {
                    OidcJwtIT.assertPassed(r);
                } else {
                    assertEquals(403, r.status(), what);
                    if (!rule.method().equals("HEAD")) {
                        assertEquals(
                                "urn:cairn:problem:forbidden",
                                r.json().get("type").asString(),
                                what);
                        assertTrue(
                                r.json()
                                        .get("detail")
                                        .asString()
                                        .startsWith("the roles of this token, [" + role.value() + "], do not allow "
                                                + rule.method() + " " + rule.path()),
                                what);
                    }
                }
            }
        }
    }

    private static Api.Response send(Api api, Rule rule) {
        HttpRequest.BodyPublisher body =
                rule.method().equals("GET") || rule.method().equals("HEAD")
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString("{}");
        return api.send(api.request(rule.path())
                .header("Content-Type", "application/json")
                .method(rule.method(), body));
    }
}
