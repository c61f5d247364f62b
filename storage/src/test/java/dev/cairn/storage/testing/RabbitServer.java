package dev.cairn.storage.testing;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * A RabbitMQ broker the tests may create virtual hosts on: its AMQP address
 * ({@code CAIRN_TEST_AMQP_URI}, {@code amqp://cairn:cairn@127.0.0.1:5672/}) and its management
 * HTTP API ({@code CAIRN_TEST_AMQP_MANAGEMENT_URI}, {@code http://cairn:cairn@127.0.0.1:15672}).
 * Both URIs carry their credentials; the user needs the {@code administrator} tag to create
 * virtual hosts.
 *
 * @param amqp       the AMQP address with credentials; its virtual host is not used
 * @param management the management API's address with credentials
 */
public record RabbitServer(URI amqp, URI management) {

    static final int DEFAULT_MANAGEMENT_PORT = 15672;

    public RabbitServer {
        if (amqp == null
                || !("amqp".equals(amqp.getScheme()) || "amqps".equals(amqp.getScheme()))
                || amqp.getHost() == null) {
            throw new IllegalArgumentException(
                    "not an AMQP URI (expected amqp://user:password@host:5672/): '" + withoutPassword(amqp) + "'");
        }
        if (management == null
                || !("http".equals(management.getScheme()) || "https".equals(management.getScheme()))
                || management.getHost() == null) {
            throw new IllegalArgumentException("not a management API URI (expected http://user:password@host:15672): '"
                    + withoutPassword(management) + "'");
        }
        if (management.getUserInfo() == null) {
            throw new IllegalArgumentException("management API URI without user:password: '" + management + "'");
        }
    }

    /**
     * From the two variables; without a management URI the API is taken to be on port 15672
     * of the AMQP host, with the AMQP credentials.
     */
    public static RabbitServer parse(String amqpUri, String managementUri) {
        URI amqp = uri(amqpUri);
        URI management = managementUri == null || managementUri.isBlank()
                ? uri(
                        "http",
                        amqp.getRawUserInfo() == null ? "guest:guest" : amqp.getRawUserInfo(),
                        amqp.getHost(),
                        DEFAULT_MANAGEMENT_PORT)
                : uri(managementUri);
        return new RabbitServer(amqp, management);
    }

    /** For a broker known by its parts (a container). */
    public static RabbitServer of(String host, int amqpPort, int managementPort, String user, String password) {
        String userInfo = userInfoPart(user) + ":" + userInfoPart(password);
        return new RabbitServer(uri("amqp", userInfo, host, amqpPort), uri("http", userInfo, host, managementPort));
    }

    /** The AMQP user; {@code guest} when the URI names none, as the Java client does. */
    public String user() {
        return credential(amqp, 0, "guest");
    }

    public String password() {
        return credential(amqp, 1, "guest");
    }

    String managementUser() {
        return credential(management, 0, "guest");
    }

    String managementPassword() {
        return credential(management, 1, "guest");
    }

    /**
     * The management API's base address without credentials and without a trailing slash,
     * e.g. {@code http://127.0.0.1:15672} (or {@code https://proxy/rabbitmq} behind a proxy).
     */
    URI managementBase() {
        String path =
                management.getRawPath() == null ? "" : management.getRawPath().replaceAll("/+$", "");
        return uri(uri(management.getScheme(), null, management.getHost(), management.getPort()) + path);
    }

    @Override
    public String toString() {
        return withoutPassword(amqp) + " (management " + managementBase() + ")";
    }

    private static String credential(URI uri, int index, String fallback) {
        String userInfo = uri.getUserInfo(); // decoded
        if (userInfo == null) {
            return fallback;
        }
        int colon = userInfo.indexOf(':');
        if (index == 0) {
            return colon < 0 ? userInfo : userInfo.substring(0, colon);
        }
        return colon < 0 ? "" : userInfo.substring(colon + 1);
    }

    private static String withoutPassword(URI uri) {
        if (uri == null) {
            return null;
        }
        return uri.getRawUserInfo() == null
                ? uri.toString()
                : uri.toString().replace(uri.getRawUserInfo(), credential(uri, 0, "") + ":***");
    }

    private static String userInfoPart(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static URI uri(String text) {
        try {
            return new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URI: '" + e.getInput().replaceAll(":[^:@/]*@", ":***@") + "'", e);
        }
    }

    private static URI uri(String scheme, String rawUserInfo, String host, int port) {
        // Assembled as text so that rawUserInfo, already percent-encoded, is not encoded twice.
        return uri(
                scheme + "://" + (rawUserInfo == null ? "" : rawUserInfo + "@") + host + (port < 0 ? "" : ":" + port));
    }
}
