package dev.cairn.api.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import dev.cairn.storage.objects.S3Location;

/**
 * Every setting of the server, as {@code cairn.*} properties; each has an environment form
 * ({@code cairn.database.url} is {@code CAIRN_DATABASE_URL}). Empty database and broker
 * settings mean the embedded mode: the server starts its own PostgreSQL and AMQP broker under
 * the data directory.
 *
 * @param roles    what this JVM does: {@code api} (the REST API), {@code worker} (runs processes), or both
 * @param dataDir  where the embedded services, the object store, plugins and the admin token live by default
 * @param caching  {@code off}, {@code all}, or entry-point patterns ({@code arithmetic.*,-arithmetic.sum})
 * @param migrateOnly bring the database schema up to date and exit, starting nothing else ({@link MigrateOnly})
 */
@ConfigurationProperties("cairn")
public record CairnProperties(
        @DefaultValue({"api", "worker"}) Set<Role> roles,
        @DefaultValue("${user.home}/.cairn") Path dataDir,
        @DefaultValue Database database,
        @DefaultValue Broker broker,
        @DefaultValue Store store,
        @DefaultValue Worker worker,
        @DefaultValue("off") String caching,
        @DefaultValue Plugins plugins,
        @DefaultValue Security security,
        @DefaultValue Limits limits,
        @DefaultValue Events events,
        @DefaultValue("false") boolean migrateOnly) {

    public enum Role {
        API,
        WORKER
    }

    public boolean hasRole(Role role) {
        return roles.contains(role);
    }

    /**
     * @param url      a JDBC URL of PostgreSQL ({@code jdbc:postgresql://host/db}); empty: the embedded one
     * @param user     the role, when the URL does not name it
     * @param poolSize connections of this JVM
     * @param connectTimeout how long a request or a step waits for a connection before it is refused (503) or
     *                       retried: how soon an outage of the database is answered
     * @param deadConnectionTimeout how long either end of a connection bears a silent peer: how soon PostgreSQL
     *                       frees the locks of a worker whose host vanished (its steps go to other workers then),
     *                       and how soon a worker cut off from PostgreSQL notices; {@code 0} leaves it to the
     *                       server's settings and the system's TCP defaults
     * @param randomPageCost PostgreSQL's planner cost of a page read out of order, for Cairn's sessions
     *                       ({@code random_page_cost}): 1.1 for a database in memory or on SSD; {@code server} keeps
     *                       the server's setting (PostgreSQL's default is 4, priced for spinning disks)
     */
    public record Database(
            String url,
            String user,
            String password,
            @DefaultValue("16") int poolSize,
            @DefaultValue("5s") Duration connectTimeout,
            @DefaultValue("30s") Duration deadConnectionTimeout,
            @DefaultValue("1.1") String randomPageCost) {
        public boolean embedded() {
            return url == null || url.isBlank();
        }

        /** The planner's cost of a page read out of order for Cairn's sessions; {@code null}: the server's. */
        public Double plannerRandomPageCost() {
            if (randomPageCost.strip().equals("server")) {
                return null;
            }
            try {
                return Double.valueOf(randomPageCost.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("cairn.database.random-page-cost must be a number (1.1 for a"
                        + " database in memory or on SSD) or 'server' (the server's own), not '" + randomPageCost
                        + "'");
            }
        }
    }

    /**
     * @param uri       an AMQP 0-9-1 URI ({@code amqp://user:pw@host:5672/vhost}); empty: the embedded broker
     * @param prefix    names this installation's queue and exchange on the broker
     * @param heartbeat the AMQP heartbeat asked for: the broker gives the tasks of a worker it has not heard
     *                  from for about two of them to the other workers, and a worker that has not heard
     *                  from the broker as long reconnects
     * @param taskQueue the type of queue the task queue is declared as: {@code classic}, or {@code quorum} for a
     *                  RabbitMQ cluster (replicated by Raft: it survives the loss of a minority of nodes)
     * @param addresses the nodes of a RabbitMQ cluster ({@code host} or {@code host:port}, comma-separated): the
     *                  engine connects, and reconnects, to one that answers, tried in a shuffled order; empty: the
     *                  URI's host
     */
    public record Broker(
            String uri,
            @DefaultValue("cairn") String prefix,
            @DefaultValue("15s") Duration heartbeat,
            @DefaultValue("classic") String taskQueue,
            List<String> addresses) {
        public Broker {
            // unset, empty (CAIRN_BROKER_ADDRESSES=) or with blanks around commas: the entries named
            addresses = addresses == null
                    ? List.of()
                    : addresses.stream()
                            .map(String::strip)
                            .filter(a -> !a.isEmpty())
                            .toList();
        }

        public boolean embedded() {
            return uri == null || uri.isBlank();
        }
    }

    /**
     * @param path          the object store folder; empty: {@code <data-dir>/objects}
     * @param deletionGrace how long a full maintenance leaves an unreferenced object marked before it deletes
     *                      it, and how recently stored an unreferenced object must be to be left unmarked: more
     *                      than storing a node may take
     * @param s3            the object store in an S3 bucket instead of a folder, when its bucket is set
     */
    public record Store(
            Path path,
            @DefaultValue("1h") Duration deletionGrace,
            @DefaultValue S3 s3) {
        public Store {
            if (deletionGrace.isNegative()) {
                throw new IllegalArgumentException("cairn.store.deletion-grace cannot be negative: " + deletionGrace);
            }
        }
    }

    /**
     * The object store in an S3 bucket ({@code cairn.store.s3.*}); every server and worker of an installation
     * names the same bucket and prefix. Credentials left empty come from the AWS SDK's default chain
     * ({@code AWS_ACCESS_KEY_ID}/{@code AWS_SECRET_ACCESS_KEY}, a profile, an instance role).
     *
     * @param bucket      the bucket, which must exist; empty: the object store is a folder
     * @param prefix      the keys of the store start with it (ends with {@code /}, or empty)
     * @param endpoint    the S3 server's URL; empty: AWS's endpoint of the region
     * @param region      the signing region
     * @param pathStyle   address the bucket in the URL's path (most servers that are not AWS)
     * @param accessKey   the access key; empty: the default chain
     * @param secretKey   its secret
     * @param cacheDir    this host's copy of the store's index and its sandbox; empty: {@code <data-dir>/s3-cache}
     * @param maxAttempts how often a failed request is tried in all before the operation fails
     * @param timeout     how long one request may wait for its answer
     */
    public record S3(
            String bucket,
            @DefaultValue("") String prefix,
            URI endpoint,
            @DefaultValue("us-east-1") String region,
            @DefaultValue("true") boolean pathStyle,
            String accessKey,
            String secretKey,
            Path cacheDir,
            @DefaultValue("8") int maxAttempts,
            @DefaultValue("60s") Duration timeout) {
        public boolean enabled() {
            return bucket != null && !bucket.isBlank();
        }
    }

    /**
     * @param slots         steps a worker runs at once
     * @param shutdownGrace how long running steps may take to finish when the server stops
     */
    public record Worker(
            @DefaultValue("4") int slots,
            @DefaultValue("30s") Duration shutdownGrace) {}

    /** @param dir plugin jars to load; empty: {@code <data-dir>/plugins} */
    public record Plugins(Path dir) {}

    /**
     * @param tokenFile    where the first start writes an admin token; empty: {@code <data-dir>/admin-token}
     * @param readOnly     refuse every request that would change something
     * @param corsOrigins  origins a browser may call the API from
     * @param oidc         an institution's OpenID Connect issuer whose JWTs are accepted beside Cairn's tokens
     * @param sessionTimeout how long a web view's session lives without a request of the person's (a page's
     *                     event stream is not one), to the second
     */
    public record Security(
            Path tokenFile,
            @DefaultValue("false") boolean readOnly,
            @DefaultValue List<String> corsOrigins,
            @DefaultValue Oidc oidc,
            @DefaultValue("30m") Duration sessionTimeout) {}

    /**
     * @param issuerUri  the issuer; empty: no JWTs are accepted
     * @param rolesClaim the claim that holds the roles (read, submit, admin), a list or space-separated
     * @param userClaim  the claim that names the user, an email
     * @param clientId     the web view's client at the issuer; empty: the sign-in page offers no sign-in through it
     * @param clientSecret that client's secret; empty: a public client, whose code is bound by PKCE alone
     * @param name         the issuer as the sign-in page names it ("Sign in with …")
     */
    public record Oidc(
            String issuerUri,
            @DefaultValue("roles") String rolesClaim,
            @DefaultValue("email") String userClaim,
            String clientId,
            String clientSecret,
            @DefaultValue("your institution") String name) {
        public boolean enabled() {
            return issuerUri != null && !issuerUri.isBlank();
        }

        /** Whether people sign in to the web view through the issuer. */
        public boolean signIn() {
            return enabled() && clientId != null && !clientId.isBlank();
        }
    }

    /**
     * @param uploadMaxSize   the largest file a client may upload
     * @param batchMax        the most processes one batch submit may launch
     * @param pageMax         the most items one page of a list may hold
     */
    public record Limits(
            @DefaultValue("4GB") DataSize uploadMaxSize,
            @DefaultValue("1000") int batchMax,
            @DefaultValue("1000") int pageMax) {}

    /**
     * @param retention how long the state changes of processes are kept for event streams to replay
     *                  ({@code process_event}); older ones are deleted
     * @param heartbeat how often an idle event stream gets a comment, so proxies keep it open
     * @param gapWait   how long an event stream waits for a state change that took an earlier id but
     *                  has not committed, before it goes on without it (and sends it late, without an id)
     */
    public record Events(
            @DefaultValue("7d") Duration retention,
            @DefaultValue("15s") Duration heartbeat,
            @DefaultValue("5s") Duration gapWait,
            @DefaultValue("30s") Duration linger) {}

    public Path storePath() {
        return store.path() != null ? store.path() : dataDir.resolve("objects");
    }

    /** The object store's bucket, or null when the store is a folder ({@link #storePath()}). */
    public S3Location storeBucket() {
        S3 s3 = store.s3();
        if (!s3.enabled()) {
            return null;
        }
        S3Location at = new S3Location(
                s3.bucket(),
                s3.prefix(),
                s3.endpoint(),
                s3.region(),
                s3.pathStyle(),
                blankToNull(s3.accessKey()),
                blankToNull(s3.secretKey()),
                s3.cacheDir() != null ? s3.cacheDir() : dataDir.resolve("s3-cache"),
                s3.maxAttempts(),
                s3.timeout());
        return at;
    }

    /** The local folder of the object store: the store itself, or this host's cache of the bucket's store. */
    public Path storeFolder() {
        S3Location bucket = storeBucket();
        return bucket != null ? bucket.cacheDir() : storePath();
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    public Path pluginDir() {
        return plugins.dir() != null ? plugins.dir() : dataDir.resolve("plugins");
    }

    public Path tokenFile() {
        return security.tokenFile() != null ? security.tokenFile() : dataDir.resolve("admin-token");
    }
}
