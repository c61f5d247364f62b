package dev.cairn.cli.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/** One request on the JDK's {@link HttpURLConnection}: the light transport of {@link CairnClient}. */
final class Light {

    /** A status and the body as it comes (the error body for 4xx and 5xx); the caller closes it. */
    record Response(int status, InputStream body) {

        /** The whole body as text, closed. */
        String text() {
            try (InputStream in = body) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        }
    }

    private Light() {}

    /**
     * @param json      a JSON body to send, or null for none
     * @param readLimit milliseconds to wait for each read of the answer; 0 waits as long as it takes
     */
    static Response send(
            String method, URI url, String token, String accept, String json, int connectLimit, int readLimit)
            throws IOException {
        HttpURLConnection connection = (HttpURLConnection) url.toURL().openConnection();
        connection.setRequestMethod(method);
        connection.setConnectTimeout(connectLimit);
        connection.setReadTimeout(readLimit);
        connection.setUseCaches(false);
        connection.setInstanceFollowRedirects(false);
        connection.setRequestProperty("Accept", accept);
        if (token != null) {
            connection.setRequestProperty("Authorization", "Bearer " + token);
        }
        if (json != null) {
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            connection.setDoOutput(true);
            connection.setRequestProperty("Content-Type", "application/json");
            connection.setFixedLengthStreamingMode(bytes.length);
            try (OutputStream out = connection.getOutputStream()) {
                out.write(bytes);
            }
        }
        int status = connection.getResponseCode();
        InputStream body = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
        return new Response(status, body == null ? new ByteArrayInputStream(new byte[0]) : body);
    }
}
