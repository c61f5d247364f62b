package dev.cairn.api.security;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.catalina.Host;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.api.web.Problems;

/**
 * Tomcat's report of a request it refused before any filter saw it (a request line and headers
 * past the connector's limit, an HTTP version it does not speak) as a problem document, where
 * Tomcat would answer with an HTML page that no API client reads. It takes the place of the
 * host's {@link ErrorReportValve}; errors raised further in reach Spring's handlers as before.
 */
final class ConnectorRefusals extends ErrorReportValve {

    private final JsonMapper json;

    ConnectorRefusals(JsonMapper json) {
        this.json = json;
    }

    /**
     * Installs this valve on the context's host, which then adds no report valve of its own; the
     * one Spring Boot adds (after this, whatever the order of customizers) goes when the host starts.
     */
    static void install(Host host, JsonMapper json) {
        Pipeline pipeline = host.getPipeline();
        pipeline.addValve(new ConnectorRefusals(json));
        ((StandardHost) host).setErrorReportValveClass(ConnectorRefusals.class.getName());
        host.addLifecycleListener(event -> {
            if (Lifecycle.BEFORE_START_EVENT.equals(event.getType())) {
                for (Valve valve : pipeline.getValves()) {
                    if (valve instanceof ErrorReportValve && !(valve instanceof ConnectorRefusals)) {
                        pipeline.removeValve(valve);
                    }
                }
            }
        });
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(true);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        try {
            SecurityConfiguration.write(
                    json, response, problem(status, reason(response, throwable), headerLimit(request)));
            response.finishResponse();
        } catch (IOException | RuntimeException e) {
            container.getLogger().debug("could not write the problem of a refused request", e);
        }
    }

    private static ProblemDetail problem(int status, String reason, int headerLimit) {
        String detail = "the server refused the request before reading it: " + reason;
        return switch (status) {
            case 400 ->
                Problems.INVALID_INPUT.with(
                        reason.contains("too large")
                                ? detail + " (the request line and headers may take " + headerLimit
                                        + " bytes; a long query string is the usual cause)"
                                : detail);
            case 413 -> Problems.TOO_LARGE.with(detail);
            case 503 -> Problems.UNAVAILABLE.with(detail);
            default -> ProblemDetail.forStatusAndDetail(HttpStatusCode.valueOf(status), detail);
        };
    }

    private static int headerLimit(Request request) {
        return request.getConnector().getProtocolHandler() instanceof AbstractHttp11Protocol<?> http
                ? http.getMaxHttpRequestHeaderSize()
                : -1;
    }

    private static String reason(Response response, Throwable throwable) {
        if (response.getMessage() != null && !response.getMessage().isBlank()) {
            return response.getMessage();
        }
        if (throwable != null && throwable.getMessage() != null) {
            return throwable.getMessage();
        }
        HttpStatus known = HttpStatus.resolve(response.getStatus());
        return known == null ? "status " + response.getStatus() : known.getReasonPhrase();
    }
}
