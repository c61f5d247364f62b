package dev.cairn.api.security;

import jakarta.servlet.DispatcherType;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.context.RequestAttributeSecurityContextRepository;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter;

import dev.cairn.api.config.CairnProperties;

/**
 * Who may see which page of the web view ({@code /ui}). A page needs a signed-in session
 * ({@link PageSessions}) whose token has the role read; pausing, playing and killing need submit, as
 * in the API. Where an OIDC issuer's client is configured, people may also sign in through it
 * ({@link IssuerSignIn}). Every POST needs the session's CSRF token. The pages' scripts and styles (WebJars and
 * {@code /ui/assets}) are open, and come from this server alone: the content security policy lets a
 * page load nothing from another host.
 */
@Configuration(proxyBeanMethods = false)
class PageSecurityConfiguration {

    static final String SIGN_IN = "/ui/sign-in";

    @Bean
    PageSessions pageSessions(BearerAuthentication bearer, CairnProperties properties) {
        return new PageSessions(bearer, properties);
    }

    @Bean
    @Order(1)
    SecurityFilterChain pages(HttpSecurity http, PageSessions sessions, CairnProperties properties) throws Exception {
        String read = Role.READ.name();
        String submit = Role.SUBMIT.name();
        http.securityMatcher("/ui/**", "/ui", "/webjars/**")
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.IF_REQUIRED))
                // the session holds the credential, not the authentication: each request is authenticated anew
                .securityContext(c -> c.securityContextRepository(new RequestAttributeSecurityContextRepository()))
                .authorizeHttpRequests(a -> a
                        // an event stream's end is dispatched again (async): its start was authorized, and the
                        // session's credential is not read again for it
                        .dispatcherTypeMatchers(DispatcherType.ASYNC)
                        .permitAll()
                        .requestMatchers(SIGN_IN, "/ui/assets/**", "/webjars/**", "/ui/sign-out", "/ui/oauth2/**")
                        .permitAll()
                        // reading with a body: a query
                        .requestMatchers(HttpMethod.POST, "/ui/query", "/ui/query.csv")
                        .hasRole(read)
                        .requestMatchers(HttpMethod.GET, "/ui", "/ui/**")
                        .hasRole(read)
                        .requestMatchers(HttpMethod.POST, "/ui/**")
                        .hasRole(submit)
                        .anyRequest()
                        .denyAll())
                .exceptionHandling(e -> e.authenticationEntryPoint((request, response, failure) -> {
                            if (request.getHeader("HX-Request") != null) {
                                // htmx would put the sign-in page where a part of the page goes: it goes there itself
                                response.setHeader("HX-Redirect", SIGN_IN);
                                response.sendError(401);
                                return;
                            }
                            if (!String.valueOf(request.getHeader("Accept")).contains("text/html")) {
                                // a page's event stream or fetch: sent to the sign-in page, it would take the
                                // message saying why the session ended before the page the person sees
                                response.sendError(401);
                                return;
                            }
                            new LoginUrlAuthenticationEntryPoint(SIGN_IN).commence(request, response, failure);
                        })
                        .accessDeniedHandler((request, response, denied) -> {
                            response.setStatus(403);
                            response.setContentType("text/plain;charset=UTF-8");
                            response.getWriter()
                                    .write("The roles of your sign-in do not allow " + request.getMethod() + " "
                                            + request.getRequestURI()
                                            + " (reading needs read; pausing, playing and killing submit).");
                        }))
                .logout(l -> l.logoutUrl("/ui/sign-out").logoutSuccessUrl(SIGN_IN + "?signed-out"))
                .headers(h -> h.contentSecurityPolicy(csp -> csp.policyDirectives("default-src 'self'; img-src 'self'"
                                + " data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self';"
                                + " frame-ancestors 'none'; form-action 'self'; base-uri 'self'"))
                        .referrerPolicy(r -> r.policy(ReferrerPolicyHeaderWriter.ReferrerPolicy.SAME_ORIGIN)));
        IssuerRenewal renewal = null;
        if (properties.security().oidc().signIn()) {
            IssuerSignIn issuer = new IssuerSignIn(properties.security().oidc(), sessions);
            issuer.configure(http);
            renewal = issuer.renewal();
        }
        http.addFilterBefore(new SessionCredentialFilter(sessions, renewal), AuthorizationFilter.class);
        return http.build();
    }
}
