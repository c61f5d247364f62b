package dev.cairn.storage.objects;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where a container in an S3 bucket is, and how to reach it. Opening one needs the AWS SDK for Java v2
 * ({@code software.amazon.awssdk:s3} and {@code url-connection-client}) on the class path; nothing else of
 * the object store does.
 *
 * @param bucket      the bucket, which must exist
 * @param prefix      the container's keys start with it: empty, or ending in {@code /}
 * @param endpoint    the S3 server ({@code https://s3.eu-central-1.amazonaws.com}, a computing centre's
 *                    gateway); null: AWS's endpoint for the region
 * @param region      the signing region ({@code us-east-1} for most servers that are not AWS)
 * @param pathStyle   address the bucket in the path rather than the host name (most servers that are not AWS)
 * @param accessKey   with {@code secretKey}; null: the SDK's default chain (environment, profile, instance role)
 * @param secretKey   the secret of {@code accessKey}
 * @param cacheDir    this host's folder for the container: its copy of the index and its sandbox
 * @param maxAttempts how often a failed request is tried in all (with backoff) before it fails the operation
 * @param timeout     how long one request may wait for an answer before it is tried again
 */
public record S3Location(
        String bucket,
        String prefix,
        URI endpoint,
        String region,
        boolean pathStyle,
        String accessKey,
        String secretKey,
        Path cacheDir,
        int maxAttempts,
        Duration timeout) {

    public S3Location {
        if (bucket == null || !bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
            throw new IllegalArgumentException("not an S3 bucket name: '" + bucket + "'");
        }
        prefix = prefix == null ? "" : prefix;
        if (!prefix.isEmpty() && (!prefix.endsWith("/") || prefix.startsWith("/"))) {
            throw new IllegalArgumentException(
                    "an S3 key prefix is empty or ends with '/' (and does not start with one), not '" + prefix + "'");
        }
        if (region == null || region.isBlank()) {
            throw new IllegalArgumentException(
                    "the S3 region is missing (us-east-1 suits most servers that are not AWS)");
        }
        if ((accessKey == null) != (secretKey == null)) {
            throw new IllegalArgumentException("an S3 access key needs its secret key, and the other way round");
        }
        if (cacheDir == null) {
            throw new IllegalArgumentException("a container in a bucket needs a local cache folder");
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, not " + maxAttempts);
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the S3 request timeout must be positive, not " + timeout);
        }
    }

    /** A location with the defaults: 8 attempts per request, 60 s timeout, the default credentials. */
    public static S3Location of(String bucket, String prefix, URI endpoint, String region, Path cacheDir) {
        return new S3Location(
                bucket, prefix, endpoint, region, endpoint != null, null, null, cacheDir, 8, Duration.ofSeconds(60));
    }

    /**
     * A location from its URI form, {@code s3://bucket/prefix/?endpoint=URL&region=NAME&path-style=true}
     * (endpoint, region and path-style optional: AWS, us-east-1, and path style with an endpoint), with the
     * SDK's default credentials (for instance {@code AWS_ACCESS_KEY_ID} and {@code AWS_SECRET_ACCESS_KEY});
     * its cache folder is {@code cacheRoot/bucket/prefix}.
     */
    public static S3Location parse(String uri, Path cacheRoot) {
        URI u;
        try {
            u = URI.create(uri);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not an S3 location: '" + uri + "' (" + e.getMessage() + ")");
        }
        if (!"s3".equals(u.getScheme()) || u.getHost() == null) {
            throw new IllegalArgumentException(
                    "not an S3 location: '" + uri + "'; give s3://bucket/prefix/?endpoint=URL&region=NAME");
        }
        String prefix = u.getPath() == null ? "" : u.getPath().replaceFirst("^/", "");
        if (!prefix.isEmpty() && !prefix.endsWith("/")) {
            prefix += "/";
        }
        URI endpoint = null;
        String region = "us-east-1";
        Boolean pathStyle = null;
        if (u.getQuery() != null) {
            for (String pair : u.getQuery().split("&")) {
                String[] kv = pair.split("=", 2);
                String value = kv.length == 2 ? kv[1] : "";
                switch (kv[0]) {
                    case "endpoint" -> endpoint = URI.create(value);
                    case "region" -> region = value;
                    case "path-style" -> pathStyle = Boolean.parseBoolean(value);
                    default ->
                        throw new IllegalArgumentException("unknown setting '" + kv[0] + "' in S3 location '" + uri
                                + "'; known: endpoint, region, path-style");
                }
            }
        }
        S3Location at = of(
                u.getHost(),
                prefix,
                endpoint,
                region,
                cacheRoot
                        .resolve(u.getHost())
                        .resolve(prefix.isEmpty() ? "_" : prefix.substring(0, prefix.length() - 1)));
        return pathStyle == null
                ? at
                : new S3Location(
                        at.bucket,
                        at.prefix,
                        at.endpoint,
                        at.region,
                        pathStyle,
                        null,
                        null,
                        at.cacheDir,
                        at.maxAttempts,
                        at.timeout);
    }

    public S3Location withCredentials(String accessKey, String secretKey) {
        return new S3Location(
                bucket, prefix, endpoint, region, pathStyle, accessKey, secretKey, cacheDir, maxAttempts, timeout);
    }

    public S3Location withRetries(int maxAttempts, Duration timeout) {
        return new S3Location(
                bucket, prefix, endpoint, region, pathStyle, accessKey, secretKey, cacheDir, maxAttempts, timeout);
    }

    /** {@code s3://bucket/prefix}, for messages. */
    @Override
    public String toString() {
        return "s3://" + bucket + "/" + prefix + (endpoint == null ? "" : " at " + endpoint);
    }
}
