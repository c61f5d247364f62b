package dev.cairn.api;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The Cairn server: the REST API and a worker, or either, by {@code cairn.roles}. */
@SpringBootApplication
public class CairnApplication {

    public static void main(String[] args) {
        SpringApplication.run(CairnApplication.class, args);
    }
}
