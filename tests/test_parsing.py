"""Tests for gitroute.parsing: language detection, per-language tag extraction, manifests, robustness."""
from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gitroute.model import SYMBOL_KINDS, DeclaredEntry, FileExtract
from gitroute.parsing import (
    declared_entry_points,
    extract,
    grammars,
    language_for_content,
    language_for_path,
    references,
)
from gitroute.parsing import symbols as symbol_stage
from gitroute.parsing.families import QUERY_FILES, family
from gitroute.parsing.nodes import MAX_DOC

# ------------------------------------------------------------------------------------ the language table


@dataclass(frozen=True)
class Case:
    """One idiomatic file and what extraction must find in it.

    symbols: every symbol, in order, as (name, kind, line, parent name or None).
    calls / references: (enclosing symbol name or None, name, line) that must be present.
    imports: every import name, in order.
    docs: the exact doc of the first symbol with that name.
    entries: names of the symbols marked as entry points (exactly these).
    """

    lang: str
    source: str
    symbols: list[tuple[str, str, int, str | None]]
    calls: set[tuple[str | None, str, int]]
    imports: list[str]
    references: set[tuple[str | None, str, int]]
    docs: dict[str, str]
    entries: set[str] = field(default_factory=set)
    file_entry: bool = False


CASES = [
    Case(
        "python",
        '''\
        """Weather client module."""
        import os.path
        from .models import Forecast
        from typing import (Any, Optional)


        # Guess the user's location from the IP address.
        def guess_location(ip: str) -> str:
            return lookup(ip).city


        class OpenMeteoClient(BaseClient):
            """Talks to the Open-Meteo API."""

            def __init__(self, session: Any) -> None:
                self.session = session

            @property
            def forecast(self) -> Forecast:
                def inner():
                    return 1
                return self.session.get(os.path.join("a", "b"))


        def main() -> None:
            client = OpenMeteoClient(None)
            print(client.forecast)


        if __name__ == '__main__':
            main()
        ''',
        symbols=[
            ("guess_location", "function", 8, None),
            ("OpenMeteoClient", "class", 12, None),
            ("__init__", "method", 15, "OpenMeteoClient"),
            ("forecast", "method", 19, "OpenMeteoClient"),
            ("inner", "function", 20, "forecast"),
            ("main", "function", 25, None),
        ],
        calls={("guess_location", "lookup", 9), ("forecast", "get", 22), ("forecast", "join", 22),
               ("main", "OpenMeteoClient", 26), (None, "main", 31)},
        imports=["os.path", ".models", "typing"],
        references={("OpenMeteoClient", "BaseClient", 12), ("forecast", "Forecast", 19)},
        docs={"guess_location": "Guess the user's location from the IP address.",
              "OpenMeteoClient": "Talks to the Open-Meteo API.", "__init__": ""},
        entries={"main"},
        file_entry=True,
    ),
    Case(
        "javascript",
        """\
        import { readFile } from "node:fs/promises";
        const path = require('path');

        /**
         * Guess the user's location.
         */
        export async function guessLocation(ip) {
          return lookup(ip).city;
        }

        // Talks to the API.
        class OpenMeteoClient extends BaseClient {
          constructor(session) {
            super();
            this.session = session;
          }

          // Fetch the forecast.
          async forecast() {
            return this.session.get(path.join("a", "b"));
          }
        }

        const helper = (x) => x * 2;
        let render = function () { return <Widget size={2} />; };
        """,
        symbols=[
            ("guessLocation", "function", 7, None),
            ("OpenMeteoClient", "class", 12, None),
            ("constructor", "method", 13, "OpenMeteoClient"),
            ("forecast", "method", 19, "OpenMeteoClient"),
            ("helper", "function", 24, None),
            ("render", "function", 25, None),
        ],
        calls={("guessLocation", "lookup", 8), ("forecast", "get", 20), ("forecast", "join", 20),
               ("render", "Widget", 25)},
        imports=["node:fs/promises", "path"],
        references={("OpenMeteoClient", "BaseClient", 12)},
        docs={"guessLocation": "Guess the user's location.", "OpenMeteoClient": "Talks to the API.",
              "forecast": "Fetch the forecast.", "constructor": ""},
    ),
    Case(
        "typescript",
        """\
        import { Forecast } from "./models";
        import type { Session } from '../http';

        /** A source of forecasts. */
        export interface WeatherSource {
          forecast(city: string): Promise<Forecast>;
        }

        enum Unit { Celsius, Fahrenheit }

        // Talks to the API.
        export class OpenMeteoClient implements WeatherSource {
          private session: Session;
          constructor(session: Session) {
            this.session = session;
          }
          async forecast(city: City): Promise<Forecast> {
            return fetchJson<Forecast>(buildUrl(city));
          }
        }

        namespace Geo { export function locate(): void {} }
        abstract class Base { abstract run(): void; }
        export default function main(): void {
          new OpenMeteoClient(makeSession()).forecast("x");
        }
        """,
        symbols=[
            ("WeatherSource", "interface", 5, None),
            ("forecast", "method", 6, "WeatherSource"),
            ("Unit", "enum", 9, None),
            ("OpenMeteoClient", "class", 12, None),
            ("constructor", "method", 14, "OpenMeteoClient"),
            ("forecast", "method", 17, "OpenMeteoClient"),
            ("locate", "function", 22, None),
            ("Base", "class", 23, None),
            ("run", "method", 23, "Base"),
            ("main", "function", 24, None),
        ],
        calls={("forecast", "fetchJson", 18), ("forecast", "buildUrl", 18), ("main", "OpenMeteoClient", 25),
               ("main", "forecast", 25)},
        imports=["./models", "../http"],
        references={("OpenMeteoClient", "WeatherSource", 12), ("constructor", "Session", 14),
                    ("forecast", "City", 17)},
        docs={"WeatherSource": "A source of forecasts.", "OpenMeteoClient": "Talks to the API."},
    ),
    Case(
        "tsx",
        """\
        import React from "react";
        import { Card } from "./card";

        type Props = { city: string };

        /** Shows one forecast. */
        export function ForecastCard({ city }: Props) {
          const data = useForecast(city);
          return <Card title={city}><Temperature value={data.temp} /></Card>;
        }

        export class Panel extends React.Component<Props> {
          render() {
            return <div>{formatCity(this.props.city)}</div>;
          }
        }
        """,
        symbols=[
            ("Props", "interface", 4, None),
            ("ForecastCard", "function", 7, None),
            ("Panel", "class", 12, None),
            ("render", "method", 13, "Panel"),
        ],
        calls={("ForecastCard", "useForecast", 8), ("ForecastCard", "Card", 9),
               ("ForecastCard", "Temperature", 9), ("render", "formatCity", 14)},
        imports=["react", "./card"],
        references={("ForecastCard", "Props", 7), ("Panel", "Component", 12)},
        docs={"ForecastCard": "Shows one forecast.", "Panel": ""},
    ),
    Case(
        "go",
        """\
        // Package main talks to Open-Meteo.
        package main

        import (
            "fmt"
            api "github.com/acme/weather/api"
        )

        // Forecast fetches a forecast.
        func (c *Client) Forecast(city string) (api.Forecast, error) {
            return c.session.Get(buildURL(city))
        }

        // Client talks to the API.
        type Client struct {
            session *api.Session
        }

        // Source yields forecasts.
        type Source interface {
            Forecast(city string) (api.Forecast, error)
        }

        type HandlerFunc func(string)

        func (c Client) Close() {}

        // NewClient builds a client.
        func NewClient() *Client {
            return &Client{}
        }

        func main() {
            fmt.Println(NewClient())
        }
        """,
        symbols=[
            # A method is parented to its receiver's type even when the type comes later in the file.
            ("Forecast", "method", 10, "Client"),
            ("Client", "struct", 15, None),
            ("Source", "interface", 20, None),
            ("Forecast", "method", 21, "Source"),
            ("HandlerFunc", "class", 24, None),
            ("Close", "method", 26, "Client"),
            ("NewClient", "function", 29, None),
            ("main", "function", 33, None),
        ],
        calls={("Forecast", "Get", 11), ("Forecast", "buildURL", 11), ("main", "Println", 34),
               ("main", "NewClient", 34)},
        imports=["fmt", "github.com/acme/weather/api"],
        references={("Client", "Session", 16), ("NewClient", "Client", 29), ("Close", "Client", 26)},
        docs={"Forecast": "Forecast fetches a forecast.", "Client": "Client talks to the API.",
              "Source": "Source yields forecasts.", "main": ""},
        entries={"main"},
    ),
    Case(
        "rust",
        """\
        //! Weather client crate.
        use std::collections::HashMap;
        use crate::api::{Session, Forecast as Fc};
        mod geo;

        /// Talks to the Open-Meteo API.
        #[derive(Debug, Clone)]
        pub struct Client {
            session: Session,
        }

        /// Where forecasts come from.
        pub trait Source {
            fn forecast(&self, city: &str) -> Fc;
        }

        pub enum Unit { Celsius, Fahrenheit }

        impl Client {
            /// Build a client.
            pub fn new(session: Session) -> Self {
                Client { session }
            }
        }

        impl Source for Client {
            fn forecast(&self, city: &str) -> Fc {
                self.session.get(&build_url(city))
            }
        }

        impl Source for Remote {
            fn forecast(&self, _city: &str) -> Fc { todo!() }
        }

        fn main() {
            let c = Client::new(Session::default());
        }
        """,
        symbols=[
            ("Client", "struct", 8, None),
            ("Source", "trait", 13, None),
            ("forecast", "method", 14, "Source"),
            ("Unit", "enum", 17, None),
            ("new", "method", 21, "Client"),
            ("forecast", "method", 27, "Client"),
            ("forecast", "method", 33, None),  # Remote is not defined here: a method, at file level
            ("main", "function", 36, None),
        ],
        calls={("forecast", "get", 28), ("forecast", "build_url", 28), ("forecast", "todo", 33),
               ("main", "new", 37), ("main", "default", 37)},
        imports=["std::collections::HashMap", "crate::api", "geo"],
        references={(None, "Source", 26), ("main", "Client", 37), ("Client", "Session", 9)},
        docs={"Client": "Talks to the Open-Meteo API.", "Source": "Where forecasts come from.",
              "new": "Build a client.", "Unit": ""},
        entries={"main"},
    ),
    Case(
        "java",
        """\
        package com.acme.weather;

        import java.util.List;
        import com.acme.api.Session;

        /**
         * Talks to the Open-Meteo API.
         */
        public class OpenMeteoClient extends BaseClient implements WeatherSource {
            private final Session session;

            public OpenMeteoClient(Session session) {
                this.session = requireNonNull(session);
            }

            // Fetch a forecast.
            @Override
            public Forecast forecast(String city) {
                return session.get(buildUrl(city));
            }

            interface Listener { void onForecast(Forecast f); }

            enum Unit { CELSIUS, FAHRENHEIT }

            public static void main(String[] args) {
                new OpenMeteoClient(new Session()).forecast("x");
            }

            public void main() {}
        }
        """,
        symbols=[
            ("OpenMeteoClient", "class", 9, None),
            ("OpenMeteoClient", "method", 12, "OpenMeteoClient"),
            ("forecast", "method", 18, "OpenMeteoClient"),
            ("Listener", "interface", 22, "OpenMeteoClient"),
            ("onForecast", "method", 22, "Listener"),
            ("Unit", "enum", 24, "OpenMeteoClient"),
            ("CELSIUS", "constant", 24, "Unit"),
            ("FAHRENHEIT", "constant", 24, "Unit"),
            ("main", "method", 26, "OpenMeteoClient"),
            ("main", "method", 30, "OpenMeteoClient"),
        ],
        calls={("OpenMeteoClient", "requireNonNull", 13), ("forecast", "get", 19), ("main", "Session", 27),
               ("main", "forecast", 27)},
        imports=["java.util.List", "com.acme.api.Session"],
        references={("OpenMeteoClient", "BaseClient", 9), ("OpenMeteoClient", "WeatherSource", 9),
                    ("forecast", "Forecast", 18)},
        docs={"OpenMeteoClient": "Talks to the Open-Meteo API.", "forecast": "Fetch a forecast."},
        entries={"main"},  # only the static one (line 26): checked by line below
    ),
    Case(
        "kotlin",
        """\
        package com.acme.weather

        import com.acme.api.Session
        import kotlinx.coroutines.*

        /** Talks to the Open-Meteo API. */
        class OpenMeteoClient(private val session: Session) : BaseClient(), WeatherSource {
            // Fetch a forecast.
            override fun forecast(city: String): Forecast {
                return session.get(buildUrl(city))
            }

            companion object {
                fun create(): OpenMeteoClient = OpenMeteoClient(Session())
            }
        }

        interface WeatherSource {
            fun forecast(city: String): Forecast
        }

        enum class Unit { CELSIUS, FAHRENHEIT }

        object Registry {
            fun register(c: WeatherSource) = println(c)
        }

        fun String.shout(): String = uppercase()

        fun main(args: Array<String>) {
            Registry.register(OpenMeteoClient.create())
        }
        """,
        symbols=[
            ("OpenMeteoClient", "class", 7, None),
            ("forecast", "method", 9, "OpenMeteoClient"),
            ("create", "method", 14, "OpenMeteoClient"),  # an unnamed companion is no symbol
            ("WeatherSource", "interface", 18, None),
            ("forecast", "method", 19, "WeatherSource"),
            ("Unit", "enum", 22, None),
            ("Registry", "object", 24, None),
            ("register", "method", 25, "Registry"),
            ("shout", "method", 28, None),  # an extension function is a method of String
            ("main", "function", 30, None),
        ],
        calls={("forecast", "get", 10), ("forecast", "buildUrl", 10), ("main", "register", 31),
               ("main", "create", 31), ("register", "println", 25)},
        imports=["com.acme.api.Session", "kotlinx.coroutines"],
        references={("OpenMeteoClient", "BaseClient", 7), ("OpenMeteoClient", "WeatherSource", 7),
                    ("register", "WeatherSource", 25)},
        docs={"OpenMeteoClient": "Talks to the Open-Meteo API.", "forecast": "Fetch a forecast."},
        entries={"main"},
    ),
    Case(
        "scala",
        """\
        package com.acme.weather

        import com.acme.api.Session
        import scala.concurrent.{Future, ExecutionContext}

        /** Talks to the Open-Meteo API. */
        class OpenMeteoClient(session: Session) extends BaseClient with WeatherSource {
          // Fetch a forecast.
          def forecast(city: String): Forecast =
            session.get(buildUrl(city))
        }

        trait WeatherSource {
          def forecast(city: String): Forecast
        }

        case class Point(lat: Double, lon: Double)

        object Main {
          def main(args: Array[String]): Unit = {
            val c = new OpenMeteoClient(Session.default())
            println(c.forecast("x"))
          }
        }

        object Tool extends App {
          Registry.run()
        }
        """,
        symbols=[
            ("OpenMeteoClient", "class", 7, None),
            ("forecast", "method", 9, "OpenMeteoClient"),
            ("WeatherSource", "trait", 13, None),
            ("forecast", "method", 14, "WeatherSource"),
            ("Point", "class", 17, None),
            ("Main", "object", 19, None),
            ("main", "method", 20, "Main"),
            ("Tool", "object", 26, None),
        ],
        calls={("forecast", "get", 10), ("main", "OpenMeteoClient", 21), ("main", "default", 21),
               ("main", "forecast", 22), ("Tool", "run", 27)},
        imports=["com.acme.api.Session", "scala.concurrent"],
        references={("OpenMeteoClient", "BaseClient", 7), ("OpenMeteoClient", "WeatherSource", 7)},
        docs={"OpenMeteoClient": "Talks to the Open-Meteo API.", "forecast": "Fetch a forecast."},
        entries={"main", "Tool"},
    ),
    Case(
        "c",
        """\
        #include <stdio.h>
        #include "weather/api.h"

        /* A forecast for one city. */
        struct forecast {
            double temp;
        };

        typedef struct {
            int fd;
        } session_t;

        enum unit { CELSIUS, FAHRENHEIT };

        // Build the request URL.
        static char *build_url(const char *city)
        {
            return format_url(city);
        }

        int main(int argc, char **argv)
        {
            struct forecast f = fetch(build_url(argv[1]));
            printf("%f\\n", f.temp);
            return 0;
        }
        """,
        symbols=[
            ("forecast", "struct", 5, None),
            ("session_t", "struct", 11, None),
            ("unit", "enum", 13, None),
            ("CELSIUS", "constant", 13, "unit"),
            ("FAHRENHEIT", "constant", 13, "unit"),
            ("build_url", "function", 16, None),
            ("main", "function", 21, None),
        ],
        calls={("build_url", "format_url", 18), ("main", "fetch", 23), ("main", "build_url", 23),
               ("main", "printf", 24)},
        imports=["stdio.h", "weather/api.h"],
        references={("main", "forecast", 23)},
        docs={"forecast": "A forecast for one city.", "build_url": "Build the request URL."},
        entries={"main"},
    ),
    Case(
        "cpp",
        """\
        #include <memory>
        #include "weather/session.hpp"

        namespace weather {

        /// Talks to the Open-Meteo API.
        class OpenMeteoClient : public BaseClient {
        public:
            explicit OpenMeteoClient(Session s) : session_(s) {}
            // Fetch a forecast inline.
            Forecast forecast(const std::string &city) override {
                return session_.get(buildUrl(city));
            }
            void close();
        private:
            Session session_;
        };

        template <typename T>
        T clamp(T v) { return v; }

        void OpenMeteoClient::close() {
            session_.shutdown();
        }

        }  // namespace weather

        int main() {
            auto c = weather::OpenMeteoClient::create();
            c->forecast("x");
            return 0;
        }
        """,
        symbols=[
            ("OpenMeteoClient", "class", 7, None),
            ("OpenMeteoClient", "method", 9, "OpenMeteoClient"),
            ("forecast", "method", 11, "OpenMeteoClient"),
            ("close", "method", 14, "OpenMeteoClient"),
            ("clamp", "function", 20, None),
            ("close", "method", 22, "OpenMeteoClient"),
            ("main", "function", 28, None),
        ],
        calls={("forecast", "get", 12), ("forecast", "buildUrl", 12), ("close", "shutdown", 23),
               ("main", "create", 29), ("main", "forecast", 30)},
        imports=["memory", "weather/session.hpp"],
        references={("OpenMeteoClient", "BaseClient", 7), ("OpenMeteoClient", "Session", 9)},
        docs={"OpenMeteoClient": "Talks to the Open-Meteo API.", "forecast": "Fetch a forecast inline.",
              "clamp": ""},
        entries={"main"},
    ),
    Case(
        "csharp",
        """\
        using System;
        using Acme.Api;

        namespace Acme.Weather
        {
            /// <summary>Talks to the Open-Meteo API.</summary>
            public class OpenMeteoClient : BaseClient, IWeatherSource
            {
                private readonly Session _session;

                public OpenMeteoClient(Session session) { _session = session; }

                // Fetch a forecast.
                public Forecast Forecast(string city) => _session.Get(BuildUrl(city));
            }

            public interface IWeatherSource { Forecast Forecast(string city); }

            public struct Point { public double Lat; }

            public enum Unit { Celsius, Fahrenheit }

            public record City(string Name);

            static class Program
            {
                static void Main(string[] args)
                {
                    var c = new OpenMeteoClient(new Session());
                    Console.WriteLine(c.Forecast("x"));
                }
            }
        }
        """,
        symbols=[
            ("OpenMeteoClient", "class", 7, None),
            ("OpenMeteoClient", "method", 11, "OpenMeteoClient"),
            ("Forecast", "method", 14, "OpenMeteoClient"),
            ("IWeatherSource", "interface", 17, None),
            ("Forecast", "method", 17, "IWeatherSource"),
            ("Point", "struct", 19, None),
            ("Unit", "enum", 21, None),
            ("Celsius", "constant", 21, "Unit"),
            ("Fahrenheit", "constant", 21, "Unit"),
            ("City", "class", 23, None),
            ("Program", "class", 25, None),
            ("Main", "method", 27, "Program"),
        ],
        calls={("Forecast", "Get", 14), ("Forecast", "BuildUrl", 14), ("Main", "OpenMeteoClient", 29),
               ("Main", "WriteLine", 30)},
        imports=["System", "Acme.Api"],
        references={("OpenMeteoClient", "BaseClient", 7), ("OpenMeteoClient", "IWeatherSource", 7),
                    ("OpenMeteoClient", "Session", 9)},
        docs={"OpenMeteoClient": "Talks to the Open-Meteo API.", "Forecast": "Fetch a forecast."},
        entries={"Main"},
    ),
    Case(
        "ruby",
        """\
        require "net/http"
        require_relative "weather/session"

        # Weather helpers.
        module Weather
          # Talks to the Open-Meteo API.
          class OpenMeteoClient < BaseClient
            include Comparable

            def initialize(session)
              @session = session
            end

            # Fetch a forecast.
            def forecast(city)
              @session.get(build_url(city))
            end

            def self.create
              new(Session.new)
            end
          end

          def self.version
            "1.0"
          end
        end

        def main
          puts Weather::OpenMeteoClient.create.forecast("x")
        end
        """,
        symbols=[
            ("Weather", "object", 5, None),
            ("OpenMeteoClient", "class", 7, "Weather"),
            ("initialize", "method", 10, "OpenMeteoClient"),
            ("forecast", "method", 15, "OpenMeteoClient"),
            ("create", "method", 19, "OpenMeteoClient"),
            ("version", "method", 24, "Weather"),
            ("main", "function", 29, None),
        ],
        calls={("forecast", "get", 16), ("forecast", "build_url", 16), ("create", "new", 20),
               ("main", "create", 30), ("main", "forecast", 30)},
        imports=["net/http", "weather/session"],
        references={("OpenMeteoClient", "BaseClient", 7), ("OpenMeteoClient", "Comparable", 8),
                    ("create", "Session", 20)},
        docs={"Weather": "Weather helpers.", "OpenMeteoClient": "Talks to the Open-Meteo API.",
              "forecast": "Fetch a forecast.", "version": ""},
    ),
    Case(
        "php",
        """\
        <?php
        namespace Acme\\Weather;

        use Acme\\Api\\Session;
        require 'helpers.php';

        /**
         * Talks to the Open-Meteo API.
         */
        class OpenMeteoClient extends BaseClient implements WeatherSource
        {
            use Loggable;

            public function __construct(private Session $session) {}

            // Fetch a forecast.
            public function forecast(string $city): Forecast
            {
                return $this->session->get(build_url($city));
            }

            public static function create(): self
            {
                return new OpenMeteoClient(new Session());
            }
        }

        interface WeatherSource { public function forecast(string $city): Forecast; }

        trait Loggable { function log($m) { error_log($m); } }

        enum Unit { case Celsius; }

        function main(): void
        {
            echo OpenMeteoClient::create()->forecast("x");
        }
        """,
        symbols=[
            ("OpenMeteoClient", "class", 10, None),
            ("__construct", "method", 14, "OpenMeteoClient"),
            ("forecast", "method", 17, "OpenMeteoClient"),
            ("create", "method", 22, "OpenMeteoClient"),
            ("WeatherSource", "interface", 28, None),
            ("forecast", "method", 28, "WeatherSource"),
            ("Loggable", "trait", 30, None),
            ("log", "method", 30, "Loggable"),
            ("Unit", "enum", 32, None),
            ("Celsius", "constant", 32, "Unit"),
            ("main", "function", 34, None),
        ],
        calls={("forecast", "get", 19), ("forecast", "build_url", 19), ("create", "OpenMeteoClient", 24),
               ("log", "error_log", 30), ("main", "create", 36), ("main", "forecast", 36)},
        imports=["Acme\\Api\\Session", "helpers.php"],
        references={("OpenMeteoClient", "BaseClient", 10), ("OpenMeteoClient", "WeatherSource", 10),
                    ("OpenMeteoClient", "Loggable", 12), ("main", "OpenMeteoClient", 36)},
        docs={"OpenMeteoClient": "Talks to the Open-Meteo API.", "forecast": "Fetch a forecast."},
    ),
    Case(
        "swift",
        """\
        import Foundation
        import WeatherKit

        /// Where forecasts come from.
        protocol WeatherSource {
            func forecast(city: String) -> Forecast
        }

        /// Talks to the Open-Meteo API.
        class OpenMeteoClient: BaseClient, WeatherSource {
            let session: Session

            init(session: Session) {
                self.session = session
            }

            // Fetch a forecast.
            func forecast(city: String) -> Forecast {
                return session.get(buildURL(city))
            }
        }

        struct Point {
            var lat: Double
        }

        enum Unit { case celsius, fahrenheit }

        extension OpenMeteoClient {
            func close() { session.shutdown() }
        }

        @main
        struct WeatherApp {
            static func main() {
                print(OpenMeteoClient(session: Session()).forecast(city: "x"))
            }
        }
        """,
        symbols=[
            ("WeatherSource", "interface", 5, None),
            ("forecast", "method", 6, "WeatherSource"),
            ("OpenMeteoClient", "class", 10, None),
            ("init", "method", 13, "OpenMeteoClient"),
            ("forecast", "method", 18, "OpenMeteoClient"),
            ("Point", "struct", 23, None),
            ("Unit", "enum", 27, None),
            ("close", "method", 30, "OpenMeteoClient"),  # from the extension
            ("WeatherApp", "struct", 34, None),
            ("main", "method", 35, "WeatherApp"),
        ],
        calls={("forecast", "get", 19), ("forecast", "buildURL", 19), ("close", "shutdown", 30),
               ("main", "OpenMeteoClient", 36), ("main", "forecast", 36)},
        imports=["Foundation", "WeatherKit"],
        references={("OpenMeteoClient", "BaseClient", 10), ("OpenMeteoClient", "WeatherSource", 10),
                    ("init", "Session", 13)},
        docs={"WeatherSource": "Where forecasts come from.", "OpenMeteoClient": "Talks to the Open-Meteo API.",
              "forecast": "", "init": ""},
        entries={"WeatherApp"},
    ),
    Case(
        "elixir",
        """\
        defmodule Weather.Client do
          @moduledoc \"\"\"
          Talks to the Open-Meteo API.
          \"\"\"
          alias Weather.Session
          @default_timeout 5_000

          @doc "Fetch a forecast."
          @spec forecast(String.t()) :: map
          def forecast(city) when is_binary(city), do: Session.get(build_url(city)) |> decode()
          def forecast(nil), do: %{}

          # Build the request URL.
          defp build_url(city) do
            "https://api/" <> city
          end

          @doc false
          def main, do: forecast("x")
        end
        """,
        # A module is an object, so its functions are its methods; the two clauses of forecast are one; the head
        # of a def and the words of @spec and @doc are not calls.
        symbols=[
            ("Weather.Client", "object", 1, None),
            ("default_timeout", "constant", 6, "Weather.Client"),
            ("forecast", "method", 10, "Weather.Client"),
            ("build_url", "method", 14, "Weather.Client"),
            ("main", "method", 19, "Weather.Client"),
        ],
        calls={("forecast", "is_binary", 10), ("forecast", "get", 10), ("forecast", "build_url", 10),
               ("forecast", "decode", 10), ("main", "forecast", 19)},
        imports=["Weather.Session"],
        references={("Weather.Client", "String", 9), ("forecast", "Session", 10)},
        docs={"Weather.Client": "Talks to the Open-Meteo API.", "forecast": "Fetch a forecast.",
              "build_url": "Build the request URL.", "main": ""},
    ),
    Case(
        "lua",
        """\
        local Session = require "weather.session"
        local client = {}

        --- Talks to the Open-Meteo API.
        -- @param city the city's name
        function client.forecast(city)
            return Session.get(client.build_url(city))
        end

        -- Build the request URL.
        client.build_url = function(city) return "https://api/" .. city end

        function client:close()
            self.session:shutdown()
        end

        local function main()
            print(client.forecast("x"))
        end

        function Session.reset() end
        """,
        # A module table is an object: the functions defined onto it are its methods, named as callers write them;
        # onto a table the file does not create (Session), a function keeps it as its owner.
        symbols=[
            ("client", "object", 2, None),
            ("forecast", "method", 6, "client"),
            ("build_url", "method", 11, "client"),
            ("close", "method", 13, "client"),
            ("main", "function", 17, None),
            ("reset", "function", 21, None),
        ],
        calls={("forecast", "get", 7), ("forecast", "build_url", 7), ("close", "shutdown", 14),
               ("main", "print", 18), ("main", "forecast", 18)},
        imports=["weather.session"],
        references=set(),
        docs={"forecast": "Talks to the Open-Meteo API. @param city the city's name",
              "build_url": "Build the request URL.", "close": "", "main": ""},
    ),
    Case(
        "haskell",
        """\
        module Weather.Client (forecast, Client(..)) where

        import qualified Weather.Session as S
        import Data.Maybe (fromMaybe)

        -- | Talks to the Open-Meteo API.
        data Client = Client { session :: S.Session }

        ------------------------------------------------------------------------
        -- | Fetch a forecast.
        --   Cached for a minute.

        forecast :: Client -> String -> IO Forecast
        forecast c city = S.get (session c) (buildUrl city)
        forecast _ [] = pure empty

        buildUrl city = "https://api/" ++ city

        -- | Where forecasts come from.
        class Source s where
          -- | One city's forecast.
          fetch :: s -> String -> IO Forecast
          fetch s = fetchAll s `seq` undefined

        instance Source Client where
          fetch = forecast

        (|>) :: a -> (a -> b) -> b
        x |> f = f x
        """,
        # A signature and its equations are one function; a haddock may sit one blank line above it; instance
        # functions are methods of the instance's type.
        symbols=[
            ("Client", "struct", 7, None),
            ("forecast", "function", 13, None),
            ("buildUrl", "function", 17, None),
            ("Source", "interface", 20, None),
            ("fetch", "method", 22, "Source"),
            ("fetch", "method", 26, "Client"),
            ("|>", "function", 28, None),
        ],
        calls={("forecast", "get", 14), ("forecast", "session", 14), ("forecast", "buildUrl", 14),
               ("forecast", "pure", 15), ("fetch", "fetchAll", 23), ("fetch", "seq", 23), ("|>", "f", 29)},
        imports=["Weather.Session", "Data.Maybe"],
        references={("forecast", "Client", 13), ("fetch", "String", 22)},
        docs={"Client": "Talks to the Open-Meteo API.", "forecast": "Fetch a forecast. Cached for a minute.",
              "buildUrl": "", "Source": "Where forecasts come from.", "fetch": "One city's forecast."},
    ),
]


def _run(case: Case) -> FileExtract:
    return extract(textwrap.dedent(case.source).encode(), case.lang)


def _named(result: FileExtract, index: int) -> str | None:
    return result.symbols[index].name if index >= 0 else None


@pytest.mark.parametrize("case", CASES, ids=[c.lang for c in CASES])
def test_extract_finds_exact_symbols(case: Case) -> None:
    result = _run(case)
    got = [(s.name, s.kind, s.line, _named(result, s.parent)) for s in result.symbols]
    assert got == case.symbols
    assert result.lang == case.lang
    assert result.warnings == ()


@pytest.mark.parametrize("case", CASES, ids=[c.lang for c in CASES])
def test_extract_finds_calls_imports_and_references(case: Case) -> None:
    result = _run(case)
    calls = {(_named(result, r.source), r.name, r.line) for r in result.calls}
    references = {(_named(result, r.source), r.name, r.line) for r in result.references}
    assert case.calls <= calls, sorted(case.calls - calls)
    assert [r.name for r in result.imports] == case.imports
    assert case.references <= references, sorted(case.references - references)


@pytest.mark.parametrize("case", CASES, ids=[c.lang for c in CASES])
def test_extract_reads_docs(case: Case) -> None:
    result = _run(case)
    docs = {}
    for symbol in result.symbols:
        docs.setdefault(symbol.name, symbol.doc)
    assert {name: docs[name] for name in case.docs} == case.docs


@pytest.mark.parametrize("case", CASES, ids=[c.lang for c in CASES])
def test_extract_marks_entry_points(case: Case) -> None:
    result = _run(case)
    assert {s.name for s in result.symbols if s.entry} == case.entries
    assert result.entry is case.file_entry


def test_java_entry_is_only_the_static_main() -> None:
    java = next(c for c in CASES if c.lang == "java")
    result = _run(java)
    assert [(s.line, s.entry) for s in result.symbols if s.name == "main"] == [(26, True), (30, False)]


def test_signature_is_the_name_line_stripped() -> None:
    result = _run(CASES[0])
    by_name = {s.name: s for s in result.symbols}
    assert by_name["guess_location"].signature == "def guess_location(ip: str) -> str:"
    assert by_name["forecast"].signature == "def forecast(self) -> Forecast:"  # not the decorator line
    assert by_name["OpenMeteoClient"].end_line == 22


def test_every_query_compiles() -> None:
    for lang in QUERY_FILES:
        assert grammars.query_source(lang).strip(), lang
        assert grammars.tag_query(lang) is not None, lang


@pytest.mark.parametrize("lang", ["c", "cpp"])
def test_file_level_constants_under_every_parent_the_query_names(lang: str) -> None:
    """One pattern with `#parent-type?` (captures.py) stands for one per parent: a `const` at file level, in each
    preprocessor branch and (C++) in a namespace is a constant; a function's local and a struct's member are not."""
    source = """\
        const int at_top = 1;
        #ifdef WITH_A
        const int in_ifdef = 2;
        #endif
        #if WITH_B
        const char *const in_if[] = {"b"};
        #else
        const int in_else = 3;
        #endif
        void run(void) { const int local = 4; }
        struct holder { const int member; };
        """
    expected = ["at_top", "in_ifdef", "in_if", "in_else"]
    if lang == "cpp":
        source += "namespace acme { constexpr int in_namespace = 5; }\n"
        expected.append("in_namespace")
    constants = [name for name, kind, *_rest in _symbols(source, lang) if kind == "constant"]
    assert constants == expected


@pytest.mark.parametrize("lang", ["c", "cpp"])
def test_c_declarators_that_hold_no_parameter_list_are_no_functions(lang: str) -> None:
    """The queries match a function's declarator by its fields, not its node type (`(_ declarator: ... parameters:
    (parameter_list))`: a typed nested step costs C++'s query compile 0.1 s, queries/c.scm): a pointer to a pointer,
    an array of pointers, a function pointer and a field of such types declare no function; prototypes, definitions
    and methods returning pointers still do."""
    source = """\
        int **table;
        char *names[3];
        int (*handler)(int);
        static int **grow(int **old, int n) { return old; }
        char *name_of(int id);
        struct ops { int (*open)(void); char **argv; };
        """
    expected = [("grow", "function"), ("name_of", "function"), ("ops", "struct")]
    if lang == "cpp":
        source += "class box { int **cells; int *at(int i); int &ref(int i); };\n"
        expected += [("box", "class"), ("at", "method"), ("ref", "method")]
    assert [(name, kind) for name, kind, *_rest in _symbols(source, lang)] == expected

def test_an_unknown_query_predicate_is_an_error_not_a_match(monkeypatch) -> None:
    from tree_sitter import Query

    from gitroute.parsing import captures

    source = '((identifier) @name (#no-such-predicate? @name "x")) @definition.constant'
    monkeypatch.setattr(captures, "query_source", lambda lang: source)  # as if a shipped .scm held it
    query = Query(grammars.language("c"), source)
    root = grammars.parser("c").parse(b"int x;").root_node
    with pytest.raises(ValueError, match="no-such-predicate"):
        captures.run_query("c-unknown-predicate", family("c"), query, root)


def test_load_languages_compiles_each_query_once_in_this_process() -> None:
    grammars.load_languages(["cpp", "no-such-language"])  # an unknown language is left for `extract` to report
    before = grammars.tag_query.cache_info()
    assert grammars.tag_query("cpp") is not None
    after = grammars.tag_query.cache_info()
    assert (after.hits, after.misses) == (before.hits + 1, before.misses)


def test_every_query_file_belongs_to_a_family() -> None:
    # A language's .scm files and its special cases are declared by one family: a .scm no family names is dead.
    shipped = {p.stem for p in (Path(grammars.__file__).parent / "queries").glob("*.scm")}
    named = {name for names in QUERY_FILES.values() for name in names}
    assert shipped == named
    for lang, names in QUERY_FILES.items():
        assert family(lang).queries[lang] == names, lang
    assert family("no-such-language").queries == {}


# --------------------------------------------------------------------------------- Python specifics


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('if __name__ == "__main__":\n    run()\n', True),
        ("if __name__ == '__main__':\n    run()\n", True),
        ("if '__main__' == __name__:\n    run()\n", True),
        ("def f():\n    if __name__ == '__main__':\n        run()\n", False),  # not at module level
        ("x = '__main__'\n", False),
        ("if __name__ == '__main__' and DEBUG:\n    run()\n", False),
    ],
)
def test_python_main_guard_marks_file_entry(source: str, expected: bool) -> None:
    assert extract(source.encode(), "python").entry is expected


def test_python_only_top_level_main_is_entry() -> None:
    source = b"class App:\n    def main(self):\n        pass\n\ndef main():\n    pass\n"
    result = extract(source, "python")
    assert [(s.name, s.kind, s.entry) for s in result.symbols] == [
        ("App", "class", False),
        ("main", "method", False),
        ("main", "function", True),
    ]


def test_python_docstring_wins_over_comment_and_is_collapsed() -> None:
    source = b'# above\ndef f():\n    r"""First line.\n\n       Second   line."""\n'
    assert extract(source, "python").symbols[0].doc == "First line. Second line."


def test_comment_separated_by_blank_line_is_not_a_doc() -> None:
    source = b"// stray\n\nfunction f() {}\n"
    assert extract(source, "javascript").symbols[0].doc == ""


@pytest.mark.parametrize(("lang", "marker", "definition"), [
    ("rust", "///", "fn serve() {}\n"), ("ruby", "#", "def serve\nend\n"), ("go", "//", "func Serve() {}\n"),
])
def test_a_long_doc_in_line_comments_keeps_its_head(lang: str, marker: str, definition: str) -> None:
    lines = [f"{marker} Serves files from a folder, with ranges and caching."]
    lines += [f"{marker} Detail {i}: more about the options and how each one is read." for i in range(120)]
    doc = extract(("\n".join(lines) + "\n" + definition).encode(), lang).symbols[0].doc
    assert doc.startswith("Serves files from a folder, with ranges and caching. Detail 0:")
    assert len(doc) <= MAX_DOC


def test_a_shell_script_the_grammar_cannot_read_whole_keeps_the_functions_after_the_unreadable_one() -> None:
    # bash-completion's main script: one `[[ =~ ]]` regex the grammar cannot read turned the rest of the file into
    # one error, and most of its functions were lost (here: all of them). Cut into functions, only that piece is.
    source = textwrap.dedent("""\
        #!/bin/bash
        # Drop the option arguments from a help line.
        _strip_args() {
            while [[ $line =~ \\
                ((^|[^-])-[A-Za-z0-9?][[:space:]]+)\\[?[A-Z0-9]+ ]]; do
                line=${line/"${BASH_REMATCH[0]}"/"${BASH_REMATCH[1]}"}
            done
        }

        # Complete on user names.
        _users() {
            _strip_args
            compgen -u
        }

        function _groups {
            compgen -g
        }
        complete -F _users su
        """).encode()
    result = extract(source, "bash")
    assert result.warnings == ("parse errors in 1 region",)
    assert [(s.name, s.line, s.end_line, s.doc) for s in result.symbols] == [
        ("_users", 11, 14, "Complete on user names."), ("_groups", 16, 18, ""),
    ]
    calls = {(result.symbols[c.source].name if c.source >= 0 else None, c.name, c.line) for c in result.calls}
    assert {("_users", "_strip_args", 12), ("_groups", "compgen", 17), (None, "complete", 19)} <= calls


def test_trailing_comment_of_previous_line_is_not_a_doc() -> None:
    source = b"x = 1  # about x\ndef f():\n    pass\n"
    assert extract(source, "python").symbols[0].doc == ""


def test_php_docblock_keeps_its_description_and_types_and_drops_analyser_author_and_inherit_tags() -> None:
    """`@phpstan-*`/`@psalm-*` repeat the signature's types (often a screenful of array shapes), `@author` names
    people: none of it says what the code does, and it took the room of the doc that does."""
    source = """\
        <?php
        /**
         * Buffers records until the request ends.
         *
         * @author Jane Roe <jane@example.org>
         *
         * @phpstan-import-type Record from \\Acme\\Logger
         * @phpstan-type Shape array{
         *     message: string, context: mixed[]
         * }
         * @deprecated use the flush handler
         */
        class Buffer {
            /**
             * @psalm-param array<callable(array): array> $processors
             * @param int|string $level The lowest level kept
             * @return bool Whether a record was kept
             */
            public function keep($level) {}

            /** {@inheritDoc} */
            public function close() {}
        }
        """
    assert [(name, doc) for name, _k, _l, _e, _p, doc in _symbols(source, "php")] == [
        ("Buffer", "Buffers records until the request ends. @deprecated use the flush handler"),
        ("keep", "@param int|string $level The lowest level kept @return bool Whether a record was kept"),
        ("close", ""),
    ]


def test_php_enum_cases_are_constants_of_their_enum_with_their_docs() -> None:
    source = """\
        <?php
        enum Level: int
        {
            /** Detailed debug information */
            case Debug = 100;
            case Info = 200;

            const Default = self::Info;

            public function label(): string { return 'x'; }
        }
        """
    assert [(n, k, line, parent, d) for n, k, line, _end, parent, d in _symbols(source, "php")] == [
        ("Level", "enum", 2, None, ""),
        ("Debug", "constant", 5, "Level", "Detailed debug information"),
        ("Info", "constant", 6, "Level", ""),
        ("Default", "constant", 8, "Level", ""),
        ("label", "method", 10, "Level", ""),
    ]


# ------------------------------------------------------------------------ JavaScript / TypeScript specifics


def _symbols(source: str, lang: str = "javascript") -> list[tuple[str, str, int, int, str | None, str]]:
    """(name, kind, line, end_line, parent name, doc) of every symbol, in order."""
    result = extract(textwrap.dedent(source).encode(), lang)
    assert result.warnings == ()
    return [(s.name, s.kind, s.line, s.end_line, _named(result, s.parent), s.doc) for s in result.symbols]


def test_js_member_assigned_functions_are_named_by_property_and_owned() -> None:
    source = """\
        'use strict';

        /**
         * Initialize a new `Layer`.
         */

        function Layer(path) {
          this.path = path;
        }

        /**
         * Check if this route matches `path`.
         * @public
         */

        Layer.prototype.match = function match(path) {
          return true;
        };

        /**
         * Send a response.
         */

        res.send = function send(body) {
          return this;
        };

        // Set the Content-Type.
        res.type = function contentType(type) {};
        Layer.create = () => new Layer('/');
        exports.isAbsolute = function(path){};
        b = function () {};
        var a = c = function () {};
        """
    assert _symbols(source) == [
        ("Layer", "function", 7, 9, None, "Initialize a new `Layer`."),
        ("match", "method", 16, 18, "Layer", "Check if this route matches `path`. @public"),
        ("send", "function", 24, 26, None, "Send a response."),
        ("type", "function", 29, 29, None, "Set the Content-Type."),
        ("create", "method", 30, 30, "Layer", ""),
        ("isAbsolute", "function", 31, 31, None, ""),
        ("b", "function", 32, 32, None, ""),
        ("c", "function", 33, 33, None, ""),
    ]
    result = extract(textwrap.dedent(source).encode(), "javascript")
    assert [s.signature for s in result.symbols[2:4]] == [
        "res.send = function send(body) {",
        "res.type = function contentType(type) {};",
    ]


def test_js_owner_resolves_to_a_visible_binding_and_never_cycles() -> None:
    source = """\
        class Panel { helper() {} }
        helper.run = function () {};
        (function () {
          function Inner() {}
          Inner.prototype.go = function () {};
        })();
        a.b = function () {};
        b.a = function () {};
        """
    assert [(n, k, line, parent) for n, k, line, _end, parent, _doc in _symbols(source)] == [
        ("Panel", "class", 1, None),
        ("helper", "method", 1, "Panel"),
        ("run", "function", 2, None),  # a class member is not a binding
        ("Inner", "function", 4, None),
        ("go", "method", 5, "Inner"),
        ("b", "function", 7, None),  # `a` is not a symbol: member-assigned functions own nothing
        ("a", "function", 8, None),
    ]


def test_js_module_exports_function_is_named_by_itself_else_its_variable() -> None:
    source = """\
        module.exports = function query(options) {};
        var proto = module.exports = function (options) {};
        proto.handle = function handle(req) {};
        module.exports = function () {};
        exports = module.exports = function () {};
        module.exports.parse = function () {};
        """
    assert [(n, k, line, parent) for n, k, line, _end, parent, _doc in _symbols(source)] == [
        ("query", "function", 1, None),
        ("proto", "function", 2, None),
        ("handle", "method", 3, "proto"),
        ("parse", "function", 6, None),
    ]


def test_js_named_function_expressions_and_object_literal_functions() -> None:
    source = """\
        var req = exports;
        /**
         * Parse the "Host" header field to a hostname.
         */

        defineGetter(req, 'hostname', function hostname() {
          return this.host;
        });

        var handlers = {
          // Plain text.
          text: function () {},
          'on-end': () => 1,
          json(y) {},
          get: function () {},
        };
        const f = function g() {};
        """
    assert _symbols(source) == [
        ("hostname", "function", 6, 8, None, 'Parse the "Host" header field to a hostname.'),
        # a module-level `var` is a constant, as `const` is (extractor 32): the object's functions are its own
        ("handlers", "constant", 10, 16, None, ""),
        ("text", "function", 12, 12, "handlers", "Plain text."),
        ("on-end", "function", 13, 13, "handlers", ""),
        ("json", "function", 14, 14, "handlers", ""),
        ("f", "function", 17, 17, None, ""),
    ]


@pytest.mark.parametrize("lang", ["javascript", "typescript", "tsx"])
def test_class_fields_holding_functions_are_methods(lang: str) -> None:
    source = "class A {\n  run = () => {};\n  static b = function () {};\n  name = 'a';\n}\n"
    assert _symbols(source, lang) == [
        ("A", "class", 1, 5, None, ""),
        ("run", "method", 2, 2, "A", ""),
        ("b", "method", 3, 3, "A", ""),
    ]


@pytest.mark.parametrize(
    ("source", "doc"),
    [
        ("/** Doc. */\n\nfunction f() {}\n", ""),  # the file's opening comment is its header
        ("x();\n/** Doc. */\n\nfunction f() {}\n", "Doc."),
        ("x();\n/** Doc. */\n\n\nfunction f() {}\n", ""),  # two blank lines
        ("x();\n/* Not JSDoc. */\n\nfunction f() {}\n", ""),
        ("x();\n// Line.\n\nfunction f() {}\n", ""),
        ("x();\n/** Doc. */\n\nexport const f = () => {};\n", "Doc."),
        ("x();\n/** Doc. */\n// More.\nf.g = function () {};\n", "Doc. More."),
    ],
)
def test_jsdoc_documents_across_one_blank_line(source: str, doc: str) -> None:
    assert extract(source.encode(), "typescript").symbols[0].doc == doc


# ----------------------------------------------------------------------------------------- Ruby specifics


def _ruby_docs(source: str) -> dict[str, str]:
    return {s.name: s.doc for s in extract(textwrap.dedent(source).encode(), "ruby").symbols}


@pytest.mark.parametrize(
    ("source", "name", "doc"),
    [
        # YARD's rule: a comment ending on the line above or the one before it documents the definition
        ("module Rack\n  # Serves files.\n\n  class Files\n  end\nend\n", "Files", "Serves files."),
        ("class A\n  # Makes an id.\n  # A random one.\n\n  def make_id\n  end\nend\n", "make_id",
         "Makes an id. A random one."),
        ("require 'x'\n# The A.\n\nclass A\nend\n", "A", "The A."),
        ("x = 1\n=begin\nThe A.\n=end\n\nclass A\nend\n", "A", "The A."),
        ("module Rack\n  # Stray.\n\n\n  class Files\n  end\nend\n", "Files", ""),  # two blank lines
        # the comments that open a file are its header: a magic comment, a license
        ("# frozen_string_literal: true\n\nmodule Rack\nend\n", "Rack", ""),
        ("# frozen_string_literal: true\n\n# Copyright 2020 ACME, MIT license.\n\nmodule Rack\nend\n", "Rack", ""),
        ("# frozen_string_literal: true\nmodule Rack\nend\n", "Rack", ""),  # a magic comment says nothing
    ],
)
def test_ruby_doc_comments_follow_yard_across_one_blank_line(source: str, name: str, doc: str) -> None:
    assert _ruby_docs(source)[name] == doc


def test_ruby_rdoc_directives_are_not_doc_words() -> None:
    source = """\
        class A
          # :nodoc:
          def x; end
          #:nocov:
          def y; end
          # Builds it. :call-seq:
          def z; end
        end
        """
    assert _ruby_docs(source) == {"A": "", "x": "", "y": "", "z": "Builds it."}


def test_ruby_methods_declared_by_attr_calls_and_define_method_are_methods_of_their_class() -> None:
    source = """\
        module Rack
          class Cascade
            # The apps to try, in order.
            attr_reader :apps, :root
            attr_accessor :realm
            define_method(:go) do |env|
              run(env)
            end
            attr_reader
            helper :not_a_method
          end
        end
        """
    result = extract(textwrap.dedent(source).encode(), "ruby")
    assert [(s.name, s.kind, s.line, s.end_line, _named(result, s.parent), s.doc) for s in result.symbols] == [
        ("Rack", "object", 1, 12, None, ""),
        ("Cascade", "class", 2, 11, "Rack", ""),
        ("apps", "method", 4, 4, "Cascade", "The apps to try, in order."),
        ("root", "method", 4, 4, "Cascade", "The apps to try, in order."),
        ("realm", "method", 5, 5, "Cascade", ""),
        ("go", "method", 6, 8, "Cascade", ""),
    ]
    assert ("go", "run", 7) in {(_named(result, r.source), r.name, r.line) for r in result.calls}


def test_ruby_aliases_are_methods_of_their_class_by_their_new_name() -> None:
    source = """\
        class Response
          def finish; end
          # The response as a rack triple.
          alias_method :to_a, :finish
          alias each_pair each
          alias :to_ary :to_a
          alias $new_global $old_global
        end
        """
    result = extract(textwrap.dedent(source).encode(), "ruby")
    assert [(s.name, s.kind, s.line, _named(result, s.parent), s.doc) for s in result.symbols] == [
        ("Response", "class", 1, None, ""),
        ("finish", "method", 2, "Response", ""),
        ("to_a", "method", 4, "Response", "The response as a rack triple."),
        ("each_pair", "method", 5, "Response", ""),
        ("to_ary", "method", 6, "Response", ""),
    ]


def test_ts_type_aliases_are_interfaces_and_module_constants_are_constants() -> None:
    source = """\
        /** A result. */
        export type SafeParseResult<T> = { success: boolean; data: T };
        type Id = string;
        /** Parses without throwing. */
        export const safeParse = _safeParse(ZodError);
        export const parse = (schema: Schema, data: unknown): Id => schema.run(data);
        export const LIMIT = 10;
        const email: RegExp = /^[a-z]+@[a-z]+$/;
        const fs = require("fs");
        function f() { const local = make(); }
        """
    assert _symbols(source, "typescript") == [
        ("SafeParseResult", "interface", 2, 2, None, "A result."),
        ("Id", "interface", 3, 3, None, ""),
        ("safeParse", "constant", 5, 5, None, "Parses without throwing."),
        ("parse", "function", 6, 6, None, ""),
        ("LIMIT", "constant", 7, 7, None, ""),
        ("email", "constant", 8, 8, None, ""),
        ("f", "function", 10, 10, None, ""),
    ]


def test_js_module_level_var_is_a_constant_as_const_is_and_a_required_member_is_an_import() -> None:
    # js-yaml's `var BASE64_MAP = '...'`: the CommonJS style declares module constants with `var`; before, only
    # `const`/`let` were constants, and the words of a `var` constant's name were nowhere in the meaning index.
    source = """\
        'use strict';
        var Type = require('../type');
        var EventEmitter = require('events').EventEmitter;
        const Readable = require('stream').Readable;
        // [ 64, 65, 66 ] -> [ padding, CR, LF ]
        var BASE64_MAP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
        var defaults = { indent: 2 };
        export var LIMIT = 10;
        function f() { var local = 1; }
        var hexTable = (function () { return []; }());
        """
    assert _symbols(source, "javascript") == [
        ("BASE64_MAP", "constant", 6, 6, None, "[ 64, 65, 66 ] -> [ padding, CR, LF ]"),
        ("defaults", "constant", 7, 7, None, ""),
        ("LIMIT", "constant", 8, 8, None, ""),
        ("f", "function", 9, 9, None, ""),
        ("hexTable", "constant", 10, 10, None, ""),  # qs: a value made by a function called in parentheses
    ]


def test_python_module_level_constants_are_constants_and_locals_are_not() -> None:
    source = b"""\
__all__ = ["x"]
#: Log to the wsgi error stream.
default_handler = logging.StreamHandler(stream)
MAX_AGE = 3600
alias = other
def f():
    local = make()
class A:
    attr = make()
"""
    symbols = extract(source, "python").symbols
    assert [(s.name, s.kind, s.line) for s in symbols] == [
        ("default_handler", "constant", 3), ("MAX_AGE", "constant", 4), ("f", "function", 6), ("A", "class", 8),
    ]
    assert symbols[0].doc == "Log to the wsgi error stream."


def test_python_module_level_flags_and_placeholders_are_constants() -> None:
    # attrs' `PY_3_10_PLUS = sys.version_info[:2] >= (3, 10)` was no constant: "what uses PY_3_10_PLUS" had no name
    source = b"""\
PY_3_10_PLUS = sys.version_info[:2] >= (3, 10)
PYPY = impl == "PyPy" and not frozen
DEBUG = False
_missing = None
OFFSET = -1
HEAD = ARGS[0]
GREETING = "hello, " "world"
"""
    assert [(s.name, s.kind) for s in extract(source, "python").symbols] == [
        ("PY_3_10_PLUS", "constant"), ("PYPY", "constant"), ("DEBUG", "constant"), ("_missing", "constant"),
        ("OFFSET", "constant"), ("HEAD", "constant"), ("GREETING", "constant"),
    ]


def test_java_static_final_fields_and_enum_constants_are_constants_of_their_type() -> None:
    source = """\
        public class HttpConnection {
            /** The user agent sent when none is set. */
            public static final String DEFAULT_UA = "Mozilla/5.0";
            private final Request req;
            static int count;
            interface Limits { int MAX_REDIRECTS = 20; }
            enum Method {
                GET,
                // A body travels with the request.
                POST {
                    boolean hasBody() { return true; }
                };
                boolean hasBody() { return false; }
            }
            void execute() { final int local = 1; }
        }
        """
    assert _symbols(source, "java") == [
        ("HttpConnection", "class", 1, 16, None, ""),
        ("DEFAULT_UA", "constant", 3, 3, "HttpConnection", "The user agent sent when none is set."),
        ("Limits", "interface", 6, 6, "HttpConnection", ""),
        ("MAX_REDIRECTS", "constant", 6, 6, "Limits", ""),
        ("Method", "enum", 7, 14, "HttpConnection", ""),
        ("GET", "constant", 8, 8, "Method", ""),
        ("POST", "constant", 10, 12, "Method", "A body travels with the request."),
        # An enum constant's body holds methods, as its enum does: the method stays a method.
        ("hasBody", "method", 11, 11, "POST", ""),
        ("hasBody", "method", 13, 13, "Method", ""),
        ("execute", "method", 15, 15, "HttpConnection", ""),
    ]


def test_go_package_level_consts_and_vars_are_constants_and_locals_are_not() -> None:
    source = """\
        package gin

        // DebugMode indicates gin mode is debug.
        const DebugMode = "debug"

        // The kinds of tree node.
        const (
            static nodeType = iota
            // A named parameter.
            param
        )

        var (
            default404Body = []byte("404 page not found")
        )

        var _ IRouter = (*Engine)(nil)

        func run() { const local = 1; var v = 2 }
        """
    assert _symbols(source, "go") == [
        ("DebugMode", "constant", 4, 4, None, "DebugMode indicates gin mode is debug."),
        ("static", "constant", 8, 8, None, "The kinds of tree node."),  # the group's comment, as for types
        ("param", "constant", 10, 10, None, "A named parameter."),
        ("default404Body", "constant", 14, 14, None, ""),
        ("run", "function", 19, 19, None, ""),
    ]


def test_rust_const_and_static_items_are_constants_owned_like_methods() -> None:
    source = """\
        /// The message of a bug in clap itself.
        pub const INTERNAL_ERROR_MSG: &str = "Fatal internal error";
        static GLOBAL: Mutex<u8> = Mutex::new(0);
        pub struct Id(u64);
        impl Id {
            /// The id of `--help`.
            pub const HELP: &'static str = "help";
        }
        mod util { pub(crate) const SUCCESS_CODE: i32 = 0; }
        fn main() { const LOCAL: u8 = 1; }
        """
    assert _symbols(source, "rust") == [
        ("INTERNAL_ERROR_MSG", "constant", 2, 2, None, "The message of a bug in clap itself."),
        ("GLOBAL", "constant", 3, 3, None, ""),
        ("Id", "struct", 4, 4, None, ""),
        ("HELP", "constant", 7, 7, "Id", "The id of `--help`."),
        ("SUCCESS_CODE", "constant", 9, 9, None, ""),
        ("main", "function", 10, 10, None, ""),
    ]


@pytest.mark.parametrize(
    ("lang", "source", "expected"),
    [
        ("kotlin", """\
            package acme
            /** Retries before giving up. */
            const val MAX_RETRIES = 3
            val defaultClient = Client()
            class Api {
                companion object {
                    const val TAG = "api"
                }
                val inst = 2
            }
            fun f() { val local = 1 }
            """,
         [("MAX_RETRIES", "constant", 3, None, "Retries before giving up."), ("defaultClient", "constant", 4, None, ""),
          ("Api", "class", 5, None, ""), ("TAG", "constant", 7, "Api", ""), ("f", "function", 11, None, "")]),
        ("csharp", """\
            class Api {
                /// <summary>Retries before giving up.</summary>
                public const int MaxRetries = 3;
                static readonly string Agent = "acme";
                private int inst;
                static int count;
                void Call() { const int local = 1; }
            }
            """,
         [("Api", "class", 1, None, ""), ("MaxRetries", "constant", 3, "Api", "Retries before giving up."),
          ("Agent", "constant", 4, "Api", ""), ("Call", "method", 7, "Api", "")]),
        ("scala", """\
            object Api {
              /** Retries before giving up. */
              val MaxRetries = 3
              def call() = { val local = 1 }
            }
            val agent = "acme"
            class Client { val inst = 1 }
            """,
         [("Api", "object", 1, None, ""), ("MaxRetries", "constant", 3, "Api", "Retries before giving up."),
          ("call", "method", 4, "Api", ""), ("agent", "constant", 6, None, ""), ("Client", "class", 7, None, "")]),
        ("swift", """\
            /// Retries before giving up.
            let maxRetries = 3
            struct Api {
                static let shared = Api()
                let inst = 1
            }
            func call() { let local = 1 }
            """,
         [("maxRetries", "constant", 2, None, "Retries before giving up."), ("Api", "struct", 3, None, ""),
          ("shared", "constant", 4, "Api", ""), ("call", "function", 7, None, "")]),
        ("ruby", """\
            module Acme
              # Retries before giving up.
              MAX_RETRIES = 3
              class Api
                TIMEOUT = 5
                def call; local = 1; end
              end
            end
            """,
         [("Acme", "object", 1, None, ""), ("MAX_RETRIES", "constant", 3, "Acme", "Retries before giving up."),
          ("Api", "class", 4, "Acme", ""), ("TIMEOUT", "constant", 5, "Api", ""), ("call", "method", 6, "Api", "")]),
        ("php", """\
            <?php
            /** Retries before giving up. */
            const MAX_RETRIES = 3;
            define('AGENT', 'acme');
            class Api {
                const TIMEOUT = 5;
                public static $count = 0;
            }
            """,
         [("MAX_RETRIES", "constant", 3, None, "Retries before giving up."), ("AGENT", "constant", 4, None, ""),
          ("Api", "class", 5, None, ""), ("TIMEOUT", "constant", 6, "Api", "")]),
        ("c", """\
            #ifndef API_H
            #define API_H
            /* Retries before giving up. */
            #define MAX_RETRIES 3
            #define SQUARE(x) ((x) * (x))
            static const char *agents[] = {"acme"};
            int count;
            void call(void) { const int local = 1; }
            #endif
            """,
         [("MAX_RETRIES", "constant", 4, None, "Retries before giving up."), ("SQUARE", "function", 5, None, ""),
          ("agents", "constant", 6, None, ""), ("call", "function", 8, None, "")]),
        ("cpp", """\
            namespace acme {
            // Retries before giving up.
            constexpr int kMaxRetries = 3;
            }
            class Api { static constexpr int kTimeout = 5; int inst; };
            """,
         [("kMaxRetries", "constant", 3, None, "Retries before giving up."), ("Api", "class", 5, None, ""),
          ("kTimeout", "constant", 5, "Api", "")]),
    ],
)
def test_constants_of_the_other_families_and_what_stays_out(lang: str, source: str, expected: list) -> None:
    """Module-level constants, and a type's static ones owned by it; instance fields and locals are no nodes."""
    assert [(n, k, line, parent, d) for n, k, line, _end, parent, d in _symbols(source, lang)] == expected


@pytest.mark.parametrize(
    ("lang", "source", "expected"),
    [
        ("go", """\
            package gin

            // The default ports, plain and TLS.
            var httpPort, httpsPort = 80, 443

            const (
                // Sizes of the buffer pool.
                minSize, maxSize = 64,
                    1024
            )

            var (
                defaultMaxMemory, _, debugPrintFunc = 32 << 20, 0, nil
            )

            func run() { var a, b = 1, 2 }
            """,
         [("httpPort", "constant", 4, 4, None, "The default ports, plain and TLS."),
          ("httpsPort", "constant", 4, 4, None, "The default ports, plain and TLS."),
          ("minSize", "constant", 8, 9, None, "Sizes of the buffer pool."),
          ("maxSize", "constant", 8, 9, None, "Sizes of the buffer pool."),
          ("defaultMaxMemory", "constant", 13, 13, None, ""),  # the blank name defines nothing
          ("debugPrintFunc", "constant", 13, 13, None, ""),
          ("run", "function", 16, 16, None, "")]),
        ("java", """\
            public class Tokeniser {
                /** Code points the tokeniser treats specially. */
                static final int maxBufferLen = 1024 * 32,
                    readAheadLimit = (int) (maxBufferLen * 0.75);
                private int pos, mark;
                interface Chars { char nullChar = '\\u0000', replacementChar = '\\uFFFD'; }
            }
            """,
         [("Tokeniser", "class", 1, 7, None, ""),
          ("maxBufferLen", "constant", 3, 4, "Tokeniser", "Code points the tokeniser treats specially."),
          ("readAheadLimit", "constant", 4, 4, "Tokeniser", "Code points the tokeniser treats specially."),
          ("Chars", "interface", 6, 6, "Tokeniser", ""),
          ("nullChar", "constant", 6, 6, "Chars", ""),
          ("replacementChar", "constant", 6, 6, "Chars", "")]),
        ("csharp", """\
            class Api {
                /// <summary>Retry bounds.</summary>
                public const int MinRetries = 1,
                    MaxRetries = 5;
                static readonly string Agent = "acme", Version = "1.0";
                private int a, b;
            }
            """,
         [("Api", "class", 1, 7, None, ""),
          ("MinRetries", "constant", 3, 4, "Api", "Retry bounds."),
          ("MaxRetries", "constant", 4, 4, "Api", "Retry bounds."),
          ("Agent", "constant", 5, 5, "Api", ""),
          ("Version", "constant", 5, 5, "Api", "")]),
        ("scala", """\
            object Defaults {
              /** Timeouts in seconds. */
              val connectTimeout, readTimeout = 30
            }
            var host, proxy: String = ""
            class Client { val a, b = 1 }
            """,
         [("Defaults", "object", 1, 4, None, ""),
          ("connectTimeout", "constant", 3, 3, "Defaults", "Timeouts in seconds."),
          ("readTimeout", "constant", 3, 3, "Defaults", "Timeouts in seconds."),
          ("host", "constant", 5, 5, None, ""),
          ("proxy", "constant", 5, 5, None, ""),
          ("Client", "class", 6, 6, None, "")]),
        ("swift", """\
            /// The default ports.
            let httpPort = 80,
                httpsPort = 443
            struct Api {
                static let timeout = 30, retries = 3
                let a = 1, b = 2
            }
            """,
         [("httpPort", "constant", 2, 3, None, "The default ports."),
          ("httpsPort", "constant", 3, 3, None, "The default ports."),
          ("Api", "struct", 4, 7, None, ""),
          ("timeout", "constant", 5, 5, "Api", ""),
          ("retries", "constant", 5, 5, "Api", "")]),
        ("c", """\
            /* Names of the log levels. */
            static const char *const level_names[] = {"debug", "info"},
                                     *default_level = "info";
            int count, total;
            """,
         [("level_names", "constant", 2, 3, None, "Names of the log levels."),
          ("default_level", "constant", 3, 3, None, "Names of the log levels.")]),
        ("cpp", """\
            namespace acme {
            // Retry bounds.
            constexpr int kMinRetries = 1, kMaxRetries = 5;
            }
            class Api { static constexpr int kTimeout = 5, kRetries = 3; int a, b; };
            """,
         [("kMinRetries", "constant", 3, 3, None, "Retry bounds."),
          ("kMaxRetries", "constant", 3, 3, None, "Retry bounds."),
          ("Api", "class", 5, 5, None, ""),
          ("kTimeout", "constant", 5, 5, "Api", ""),
          ("kRetries", "constant", 5, 5, "Api", "")]),
    ],
)
def test_every_name_of_a_multi_name_constant_declaration_is_a_constant(lang: str, source: str, expected: list) -> None:
    """`var a, b int`, `static final int A = 1, B = 2;` and their kin: each name a node on its own line, with the
    kind, owner and doc of the first (Kotlin and Rust have no such declaration outside a function)."""
    assert _symbols(source, lang) == expected


def test_c_typedef_names_are_types() -> None:
    """A program names its C types by their typedefs: of a struct declared elsewhere, beside a struct's own tag,
    of a scalar and of a callback's function pointer (an interface, as TypeScript's type aliases are)."""
    source = """\
        typedef struct hashtable hashtable_t;
        typedef struct pair {
            int key;
        } pair_t;
        typedef struct json_error_t {
            int line;
        } json_error_t;
        typedef long long json_int_t;
        /* Read one byte from the stream; EOF at its end. */
        typedef int (*get_func)(void *data);
        typedef void *(*json_malloc_t)(size_t);
        typedef enum color color_t;
        """
    assert _symbols(source, "c") == [
        ("hashtable_t", "struct", 1, 1, None, ""),
        ("pair_t", "struct", 4, 4, None, ""),
        ("pair", "struct", 2, 4, "pair_t", ""),
        ("json_error_t", "struct", 5, 7, None, ""),
        ("json_int_t", "interface", 8, 8, None, ""),
        ("get_func", "interface", 10, 10, None, "Read one byte from the stream; EOF at its end."),
        ("json_malloc_t", "interface", 11, 11, None, ""),
        ("color_t", "enum", 12, 12, None, ""),
    ]


def test_c_enum_members_are_constants_of_their_enum() -> None:
    """`enum { ... }` members are named constants, as `#define` ones are: each a node, with its own comment."""
    source = """\
        enum json_error_code {
            json_error_unknown,
            /* the input ended inside a value */
            json_error_premature_end_of_input = 6,
        };
        typedef enum { JSON_OBJECT } json_type;
        """
    assert _symbols(source, "c") == [
        ("json_error_code", "enum", 1, 5, None, ""),
        ("json_error_unknown", "constant", 2, 2, "json_error_code", ""),
        ("json_error_premature_end_of_input", "constant", 4, 4, "json_error_code",
         "the input ended inside a value"),
        ("json_type", "enum", 6, 6, None, ""),
        ("JSON_OBJECT", "constant", 6, 6, "json_type", ""),
    ]


def test_c_prototype_followed_by_an_attribute_macro_is_a_function() -> None:
    """`int init(t *x) ATTRS((warn_unused_result));` does not parse (the macro is unknown to the grammar); its
    prototype is still the function's declaration, with the comment above it; a broken call is not."""
    source = textwrap.dedent("""\
        /* Initialize a hashtable object. */
        int hashtable_init(hashtable_t *hashtable) JANSSON_ATTRS((warn_unused_result));
        extern unsigned long count(void) __THROW;
        void close(hashtable_t *hashtable);
        """).encode()
    result = extract(source, "c")
    assert [(s.name, s.kind, s.line, s.doc) for s in result.symbols] == [
        ("hashtable_init", "function", 2, "Initialize a hashtable object."),
        ("count", "function", 3, ""),
        ("close", "function", 4, ""),
    ]
    broken = extract(b"void run(void) {\n    start(a b);\n}\n", "c")
    assert [s.name for s in broken.symbols] == ["run"]


def test_a_c_header_written_in_cpp_is_read_as_cpp() -> None:
    """fmt, spdlog and Qt name their C++ headers `.h`: read with the C grammar their classes were parse errors and
    their methods lost. A construct only C++ has reads the file as C++; a C header's `extern "C"` guard does not."""
    source = textwrap.dedent("""\
        #include <string>
        namespace fmt {
        /** A view of a string. */
        template <typename Char> class basic_string_view {
         public:
          size_t size() const { return size_; }
        };
        }  // namespace fmt
        """).encode()
    result = extract(source, "c")
    assert result.lang == "cpp" and result.warnings == ()
    assert [(s.name, s.kind, _named(result, s.parent), s.doc) for s in result.symbols] == [
        ("basic_string_view", "class", None, "A view of a string."),
        ("size", "method", "basic_string_view", ""),
    ]
    guarded = b'#ifdef __cplusplus\nextern "C" {\n#endif\nint class_count(void);\n'
    assert extract(guarded, "c").lang == "c"


def test_cpp_bare_macro_lines_do_not_swallow_the_next_definition() -> None:
    """`FMT_BEGIN_NAMESPACE` or `Q_OBJECT` alone on a line expands to what the grammar cannot see; read as the type
    of the declaration below, it lost that class (fmt's basic_string_view). An enum's last member stays."""
    source = """\
        FMT_BEGIN_NAMESPACE
        FMT_MODULE_EXPORT_BEGIN
        // A view of a string.
        template <typename Char> class basic_string_view {};
        FMT_END_DETAIL_NAMESPACE
        class Widget : public QObject {
          Q_OBJECT
         public:
          void show();
        };  // Widget
        FMT_END_NAMESPACE
        enum color {
          RED,
          DARK_BLUE
        };
        """
    assert _symbols(source, "cpp") == [
        ("basic_string_view", "class", 4, 4, None, "A view of a string."),
        ("Widget", "class", 6, 10, None, ""),
        ("show", "method", 9, 9, "Widget", ""),
        ("color", "enum", 12, 15, None, ""),
        ("RED", "constant", 13, 13, "color", ""),
        ("DARK_BLUE", "constant", 14, 14, "color", ""),
    ]


def test_cpp_free_functions_returning_a_reference_and_a_specifier_under_an_if_are_kept() -> None:
    """spdlog's `const string_view_t &to_string_view(level_enum l)` was no node (c.scm knows no references), and its
    `#if __cplusplus >= 201703L constexpr #endif` before the level names table was a parse error."""
    source = """\
        namespace level {
        #if __cplusplus >= 201703L
        constexpr
        #endif
            static string_view_t level_string_views[] = {"trace", "debug"};

        // The name of a level.
        const string_view_t &to_string_view(level_enum l) noexcept
        {
            return level_string_views[l];
        }
        const string_view_t &to_short_view(level_enum l) noexcept;
        }
        """
    assert _symbols(source, "cpp") == [
        ("level_string_views", "constant", 5, 5, None, ""),
        ("to_string_view", "function", 8, 11, None, "The name of a level."),
        ("to_short_view", "function", 12, 12, None, ""),
    ]


def test_cpp_namespace_named_under_an_if_keeps_its_specialisations() -> None:
    """spdlog's stopwatch.h and bin_to_hex.h open `namespace #ifdef SPDLOG_USE_STD_FORMAT std #else fmt #endif {`
    around their formatter specialisations: a parse error that broke the struct around its methods."""
    source = """\
        namespace
        #ifdef SPDLOG_USE_STD_FORMAT
            std
        #else
            fmt
        #endif
        {
        // Formats a stopwatch as its elapsed seconds.
        template<>
        struct formatter<spdlog::stopwatch> : formatter<double>
        {
            template<typename FormatContext>
            auto format(const spdlog::stopwatch &sw, FormatContext &ctx) -> decltype(ctx.out())
            {
                return formatter<double>::format(sw.elapsed().count(), ctx);
            }
        };
        } // namespace std
        """
    assert _symbols(source, "cpp") == [
        ("formatter", "struct", 10, 17, None, "Formats a stopwatch as its elapsed seconds."),
        ("format", "method", 13, 16, "formatter", ""),
    ]


def test_cpp_class_whose_bases_are_under_an_if_is_defined() -> None:
    """fmt's `class dynamic_format_arg_store #if FMT_GCC_VERSION < 409 : public basic_format_args<Context> #endif {`
    read as a declaration and a block: the class was never defined ("where is dynamic_format_arg_store defined?"
    had no answer). With an `#else`, its first branch's bases are kept."""
    source = """\
        template <typename Context>
        class dynamic_format_arg_store
        #if FMT_GCC_VERSION && FMT_GCC_VERSION < 409
            // Workaround a GCC template argument substitution bug.
            : public basic_format_args<Context>
        #endif
        {
         public:
          void clear() { data_.clear(); }
        };
        struct sink
        #ifdef USE_STD
            : std::base
        #else
            : fmt::base
        #endif
        {
          void flush();
        };
        """
    assert _symbols(source, "cpp") == [
        ("dynamic_format_arg_store", "class", 2, 10, None, ""),
        ("clear", "method", 9, 9, "dynamic_format_arg_store", ""),
        ("sink", "struct", 11, 19, None, ""),
        ("flush", "method", 18, 18, "sink", ""),
    ]


_BASES_LINES = ["class A", "template <typename T> struct B", "#if X", "  #ifdef Y", "#else", "#elif Z", "#endif",
                ": public A<T>", "    // a comment", "{", "};", "int f();", "  private:", ""]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_BASES_LINES), max_size=30))
def test_a_class_s_bases_group_is_found_from_its_if_lines_as_the_whole_pattern_finds_it(lines) -> None:
    """`grouped_bases_kept` tries the pattern only above each `#if`: it must blank what trying it at every line does."""
    from gitroute.parsing.families.c_family import _GROUPED_BASES, _keep_alone, grouped_bases_kept

    data = "\n".join(lines).encode() + b"\n"
    assert grouped_bases_kept(data) == _GROUPED_BASES.sub(_keep_alone, data)


def test_cpp_specifier_macros_do_not_break_the_class_around_them() -> None:
    """`FMT_CONSTEXPR write_int_data(...) : size(n) {` read as a declaration of type FMT_CONSTEXPR broke fmt's
    `write_int_data`, which swallowed the 700 lines below it; `class FMT_API format_error` is the class it names."""
    source = """\
        template <typename Char> struct write_int_data {
          size_t size;

          FMT_CONSTEXPR write_int_data(int num_digits, unsigned prefix,
                                       const basic_format_specs<Char>& specs)
              : size((prefix >> 24) + to_unsigned(num_digits)) {
            if (specs.align == align::numeric) {
              size = to_unsigned(specs.width);
            }
          }
        };
        inline FMT_CONSTEXPR20 void adjust_precision(int& precision, int exp10) {}
        class FMT_API format_error : public std::runtime_error {
         public:
          FMT_NODISCARD int code() const { return 1; }
        };
        #define FMT_CLASS_API int
        """
    assert _symbols(source, "cpp") == [
        ("write_int_data", "struct", 1, 11, None, ""),
        ("write_int_data", "method", 4, 10, "write_int_data", ""),
        ("adjust_precision", "function", 12, 12, None, ""),
        ("format_error", "class", 13, 16, None, ""),
        ("code", "method", 15, 15, "format_error", ""),
        ("FMT_CLASS_API", "constant", 17, 17, None, ""),
    ]


def test_cpp_specifier_macros_after_a_parameter_list_keep_the_function_and_its_doc() -> None:
    """`size_t thread_id() SPDLOG_NOEXCEPT` read the macro as the declarator: spdlog lost pid, thread_id and now,
    and the docs of the declarations in its headers. The macro stands where `noexcept` would, before a body, a `;`,
    a constructor's initialiser list or `override`; one in a directive or a call is left alone."""
    source = """\
        // Return current thread id as size_t (from thread local storage)
        size_t thread_id() SPDLOG_NOEXCEPT;
        SPDLOG_INLINE int pid() SPDLOG_NOEXCEPT
        {
            return 1;
        }
        class spdlog_ex : public std::exception {
          public:
            spdlog_ex(spdlog_ex &&other) SPDLOG_NOEXCEPT : msg_(other.msg_) {}
            const char *what() const SPDLOG_NOEXCEPT override;
        };
        #define SPDLOG_NAME_FN(x) SPDLOG_NOEXCEPT
        """
    assert _symbols(source, "cpp") == [
        ("thread_id", "function", 2, 2, None, "Return current thread id as size_t (from thread local storage)"),
        ("pid", "function", 3, 6, None, ""),
        ("spdlog_ex", "class", 7, 11, None, ""),
        ("spdlog_ex", "method", 9, 9, "spdlog_ex", ""),
        ("what", "method", 10, 10, "spdlog_ex", ""),
        ("SPDLOG_NAME_FN", "function", 12, 12, None, ""),
    ]


def test_a_cpp_header_of_out_of_line_methods_is_read_as_cpp_and_keeps_them() -> None:
    """spdlog's `sink-inl.h` holds nothing but `bool spdlog::sinks::sink::should_log(...) const {}`: read as C it
    was all parse errors and had no symbol, and the query knew qualified methods under one namespace only. A C
    header's C23 attribute or a comment naming a C++ method keeps it C."""
    source = textwrap.dedent("""\
        #pragma once
        #include <spdlog/common.h>

        SPDLOG_INLINE bool spdlog::sinks::sink::should_log(spdlog::level::level_enum msg_level) const
        {
            return msg_level >= level_.load(std::memory_order_relaxed);
        }
        void spdlog::sinks::sink::set_level(level::level_enum log_level) {}
        """).encode()
    result = extract(source, "c")
    assert result.lang == "cpp" and result.warnings == ()
    assert [(s.name, s.kind, s.line) for s in result.symbols] == [("should_log", "method", 4), ("set_level", "method", 8)]
    c_header = b"/* Like Widget::draw() in C++. */\n[[gnu::format(printf, 1, 2)]] int log_line(const char *f, ...);\n"
    assert extract(c_header, "c").lang == "c"


def test_a_doxygen_block_documents_the_declaration_after_one_blank_line() -> None:
    """Doxygen gives a `/**` block to the next declaration whether a blank line comes between or not (spdlog's
    `ansicolor_sink` lost its doc); a plain `/*` block, a banner of stars and a `@file` block do not document it."""
    source = """\
        #pragma once
        /**
         * Prefixes the output with an ANSI escape sequence by severity.
         */

        template<typename ConsoleMutex>
        class ansicolor_sink {};
        /* plain comment */

        int plain();
        /*** arrays ***/

        int json_array();
        /** @file widgets.h */

        int widget_count();
        """
    assert [(name, doc) for name, _, _, _, _, doc in _symbols(source, "cpp")] == [
        ("ansicolor_sink", "Prefixes the output with an ANSI escape sequence by severity."),
        ("plain", ""),
        ("json_array", ""),
        ("widget_count", ""),
    ]


def test_cpp_access_labels_made_of_macros_keep_the_class_whole() -> None:
    """nlohmann's `JSON_PRIVATE_UNLESS_TESTED:` and Qt's `public Q_SLOTS:` are access labels the grammar cannot place:
    basic_json's members fell out of it. A goto label is left alone."""
    source = """\
        class basic_json {
          JSON_PRIVATE_UNLESS_TESTED:
            using lexer = ::nlohmann::detail::lexer_base<basic_json>;
          public Q_SLOTS:
            void dump() const;
          JSON_PRIVATE_UNLESS_TESTED:
            void assert_invariant() const noexcept {}
        };
        int run() {
          goto CLEAN_UP;
        CLEAN_UP:
          return 1;
        }
        """
    assert _symbols(source, "cpp") == [
        ("basic_json", "class", 1, 8, None, ""),
        ("dump", "method", 5, 5, "basic_json", ""),
        ("assert_invariant", "method", 7, 7, "basic_json", ""),
        ("run", "function", 9, 13, None, ""),
    ]


def test_cpp_local_variable_constructed_with_arguments_is_no_function() -> None:
    """`std::lock_guard<mutex_t> lock(mutex_);` in a body reads as a function declaration (C++'s most vexing parse):
    spdlog had 134 such "functions" named lock, p, msg; a declaration at file or class level still declares one."""
    source = """\
        int flush_all(int level);
        class registry {
          void flush() {
            std::lock_guard<std::mutex> lock(mutex_);
            details::log_msg log_msg(loc, name_, lvl);
            log_it_(log_msg);
          }
          registry(const registry &) = delete;
        };
        """
    assert _symbols(source, "cpp") == [
        ("flush_all", "function", 1, 1, None, ""),
        ("registry", "class", 2, 9, None, ""),
        ("flush", "method", 3, 7, "registry", ""),
        ("registry", "method", 8, 8, "registry", ""),
    ]


def test_csharp_conditional_base_list_keeps_members_in_their_type() -> None:
    """Json.NET's `class JValue : JToken, IComparable #if !PORTABLE , IConvertible #endif {` broke the class header
    and every member fell out of it; a delegate is a (function) type; `<see cref="X"/>` keeps X in the doc; an
    `else if` after an `#endif` is no local function `if`."""
    source = """\
        /// <summary>Handles <see cref="T:Acme.JsonSerializer"/> callback events.</summary>
        public delegate void SerializationCallback(object o);
        public class JValue : JToken, IComparable
        #if !(NETFX_CORE || PORTABLE)
            , IConvertible
        #elif PORTABLE
            , IFormattable
        #endif
        {
            /// <summary>Compares with <paramref name="obj"/>.</summary>
            public int CompareTo(object obj)
            {
        #if NET20
                if (obj == null) { return 1; }
        #endif
                else if (obj is string) { return 0; }
                return -1;
            }
        }
        """
    result = extract(textwrap.dedent(source).encode(), "csharp")
    assert [(s.name, s.kind, s.line, _named(result, s.parent), s.doc) for s in result.symbols] == [
        ("SerializationCallback", "interface", 2, None, "Handles Acme.JsonSerializer callback events."),
        ("JValue", "class", 3, None, ""),
        ("CompareTo", "method", 11, "JValue", "Compares with obj."),
    ]
    assert {r.name for r in result.references} >= {"JToken", "IComparable", "IConvertible", "IFormattable"}


def test_csharp_directives_before_a_case_label_or_an_else_keep_the_switch_and_the_if_whole() -> None:
    """Json.NET's `#if !NET20` before `case PrimitiveTypeCode.DateTimeOffset:` ended the switch section, and the label
    read as a local function `PrimitiveTypeCode`; an `#endif` before `else` broke the `if` (DictionaryWrapper's
    `else _genericDictionary.ContainsKey(key)` read as a function, and the members after it left their type)."""
    source = """\
        internal class DictionaryWrapper<TKey, TValue>
        {
            public bool ContainsKey(TKey key)
            {
                if (_dictionary != null)
                    return _dictionary.Contains(key);
        #if !(NET40 || NET35 || NET20 || PORTABLE40)
                else if (_readOnlyDictionary != null)
                    return _readOnlyDictionary.ContainsKey(key);
        #endif
                else
                    return _genericDictionary.ContainsKey(key);
            }

            internal static void WriteValue(JsonWriter writer, PrimitiveTypeCode typeCode, object value)
            {
                switch (typeCode)
                {
                    case PrimitiveTypeCode.DateTime:
                        writer.WriteValue((DateTime)value);
                        break;
        #if !NET20
                    case PrimitiveTypeCode.DateTimeOffset:
                        writer.WriteValue((DateTimeOffset)value);
                        break;
        #endif
                    default:
                        throw CreateUnsupportedTypeException(writer, value);
                }
            }

            public ICollection<TKey> Keys { get { return _keys; } }
        }
        """
    result = extract(textwrap.dedent(source).encode(), "csharp")
    assert [(s.name, s.kind, s.line, _named(result, s.parent)) for s in result.symbols] == [
        ("DictionaryWrapper", "class", 1, None),
        ("ContainsKey", "method", 3, "DictionaryWrapper"),
        ("WriteValue", "method", 15, "DictionaryWrapper"),
        ("Keys", "method", 32, "DictionaryWrapper"),
    ]
    assert not result.warnings
    names = {name for _, name, *_ in result.calls} | {r.name for r in result.references}
    assert names >= {"ContainsKey", "CreateUnsupportedTypeException", "PrimitiveTypeCode"}
    assert "else" not in names


def test_csharp_indexers_and_operators_are_methods_with_their_docs() -> None:
    """Json.NET documents JObject's indexer and JValue's `==` and conversions with XML docs: none was a node, so
    the docs reached nothing. They are methods of their type, named as C# code writes them."""
    source = """\
        public class JValue : JToken
        {
            /// <summary>Gets or sets the <see cref="JToken"/> with the specified key.</summary>
            public override JToken this[object key] { get { return null; } set { } }
            /// <summary>Determines whether two specified values are equal.</summary>
            public static bool operator ==(JValue left, JValue right) { return Equals(left, right); }
            /// <summary>Performs an implicit conversion from Boolean to JToken.</summary>
            public static implicit operator JValue(bool value) { return new JValue(value); }
        }
        """
    result = extract(textwrap.dedent(source).encode(), "csharp")
    assert [(s.name, s.kind, s.line, _named(result, s.parent), s.doc) for s in result.symbols] == [
        ("JValue", "class", 1, None, ""),
        ("this[]", "method", 4, "JValue", "Gets or sets the JToken with the specified key."),
        ("operator ==", "method", 6, "JValue", "Determines whether two specified values are equal."),
        ("operator JValue", "method", 8, "JValue", "Performs an implicit conversion from Boolean to JToken."),
    ]
    assert {name for _, name, *_ in result.calls} >= {"Equals", "JValue"}


def test_csharp_directives_inside_a_block_with_unbalanced_braces_or_after_an_else_keep_the_method_whole() -> None:
    """Json.NET's JValue.Compare opens an `if {` inside one `#if !NET20 … #endif` and closes it in another, and puts
    an `#endif` between an `else` and its statement: the method and every member after it failed to parse."""
    source = """\
        public class JValue
        {
            private static int Compare(JTokenType valueType, object objA, object objB)
            {
                switch (valueType)
                {
                    case JTokenType.Date:
        #if !NET20
                        if (objA is DateTime)
                        {
        #endif
                            DateTime date1 = (DateTime)objA;
                            DateTime date2;
        #if !NET20
                            if (objB is DateTimeOffset)
                                date2 = ((DateTimeOffset)objB).DateTime;
                            else
        #endif
                                date2 = Convert.ToDateTime(objB, CultureInfo.InvariantCulture);
                            return date1.CompareTo(date2);
        #if !NET20
                        }
                        else
                        {
                            return ((DateTimeOffset)objA).CompareTo(objB);
                        }
        #endif
                    default:
                        throw MiscellaneousUtils.CreateArgumentOutOfRangeException(valueType);
                }
            }

            /// <summary>Writes this token to a <see cref="JsonWriter"/>.</summary>
            public override void WriteTo(JsonWriter writer) { }
        }
        """
    result = extract(textwrap.dedent(source).encode(), "csharp")
    assert not result.warnings
    assert [(s.name, s.kind, s.line, _named(result, s.parent), s.doc) for s in result.symbols] == [
        ("JValue", "class", 1, None, ""),
        ("Compare", "method", 3, "JValue", ""),
        ("WriteTo", "method", 34, "JValue", "Writes this token to a JsonWriter."),
    ]
    assert {name for _, name, *_ in result.calls} >= {"ToDateTime", "CompareTo", "CreateArgumentOutOfRangeException"}


def test_csharp_directives_inside_a_list_or_an_expression_keep_the_type_whole() -> None:
    """Json.NET puts `#if` groups between a collection initializer's items (ConvertUtils' type codes,
    DefaultContractResolver's BuiltInConverters), before a `||` operand (HasNoDefinedType) and inside a type
    parameter list (`IJEnumerable< #if !NET35 out #endif T>`): each was a parse error in the type around it."""
    source = """\
        public interface IJEnumerable<
        #if !(NET20 || NET35)
            out
        #endif
                T> : IEnumerable<T> where T : JToken
        {
        }
        internal class DefaultContractResolver
        {
            private static readonly JsonConverter[] BuiltInConverters =
            {
        #if !(NET20 || NETFX_CORE)
                new EntityKeyMemberConverter(),
        #endif
                new KeyValuePairConverter(),
            };
            private static readonly Dictionary<Type, PrimitiveTypeCode> TypeCodeMap = new Dictionary<Type, PrimitiveTypeCode>
            {
                { typeof(DateTime), PrimitiveTypeCode.DateTime },
        #if !NET20
                { typeof(DateTimeOffset), PrimitiveTypeCode.DateTimeOffset },
        #endif
                { typeof(decimal), PrimitiveTypeCode.Decimal },
            };
            private bool HasNoDefinedType(JsonContract contract)
            {
                return (contract == null || contract.UnderlyingType == typeof(object)
        #if !(NET35 || NET20)
                        || contract.UnderlyingType == typeof(IDynamicMetaObjectProvider)
        #endif
                    );
            }
        }
        """
    result = extract(textwrap.dedent(source).encode(), "csharp")
    assert not result.warnings
    assert [(s.name, s.kind, s.line, _named(result, s.parent)) for s in result.symbols] == [
        ("IJEnumerable", "interface", 1, None),
        ("DefaultContractResolver", "class", 8, None),
        ("BuiltInConverters", "constant", 10, "DefaultContractResolver"),
        ("TypeCodeMap", "constant", 17, "DefaultContractResolver"),
        ("HasNoDefinedType", "method", 25, "DefaultContractResolver"),
    ]


def test_csharp_properties_and_events_are_methods_and_enum_members_constants() -> None:
    """Json.NET's settings are properties with XML docs (JsonSerializerSettings.MaxDepth), its options enums'
    members say what each choice does (FloatFormatHandling.Symbol) and its error hook is an event field: none was
    a node, so `IndentChar` found nothing and their docs were only the class's capped body words."""
    source = """\
        public class JsonSerializerSettings
        {
            /// <summary>
            /// Gets or sets the maximum depth allowed when reading JSON. Reading past this depth will throw a <see cref="JsonReaderException"/>.
            /// </summary>
            [DefaultValue(null)]
            public int? MaxDepth
            {
                get { return _maxDepth; }
                set { _maxDepth = value; }
            }
            public ITraceWriter TraceWriter { get; set; }
            /// <summary>Occurs when the serializer hits an error.</summary>
            public event EventHandler<ErrorEventArgs> Error;
            public event EventHandler Changed { add { } remove { } }
            public JToken this[object key] { get { return null; } }
        }
        /// <summary>Specifies float format handling options.</summary>
        public enum FloatFormatHandling
        {
            /// <summary>Write special floating point values as strings in JSON, e.g. "NaN", "Infinity".</summary>
            String = 0,
            [EnumMember(Value = "sym")]
            Symbol
        }
        """
    result = extract(textwrap.dedent(source).encode(), "csharp")
    assert [(s.name, s.kind, s.line, _named(result, s.parent), s.doc) for s in result.symbols] == [
        ("JsonSerializerSettings", "class", 1, None, ""),
        ("MaxDepth", "method", 7, "JsonSerializerSettings",
         "Gets or sets the maximum depth allowed when reading JSON. Reading past this depth will throw a "
         "JsonReaderException."),
        ("TraceWriter", "method", 12, "JsonSerializerSettings", ""),
        ("Error", "method", 14, "JsonSerializerSettings", "Occurs when the serializer hits an error."),
        ("Changed", "method", 15, "JsonSerializerSettings", ""),
        ("this[]", "method", 16, "JsonSerializerSettings", ""),
        ("FloatFormatHandling", "enum", 19, None, "Specifies float format handling options."),
        ("String", "constant", 22, "FloatFormatHandling",
         'Write special floating point values as strings in JSON, e.g. "NaN", "Infinity".'),
        ("Symbol", "constant", 24, "FloatFormatHandling", ""),
    ]
    # A property's type is a use of that type, as a method's return type is.
    assert {r.name for r in result.references} >= {"ITraceWriter", "ErrorEventArgs"}


def test_kotlin_kdoc_above_annotations_after_an_expression_body_documents_the_definition() -> None:
    """After `fun f() = g()` the grammar reads the next line's `@Suppress("X")` as an expression of its own, and the
    KDoc above it was lost (kotlinx.coroutines' CompletableDeferred builders and CompletableDeferredImpl)."""
    source = """\
        public fun <T> deferred(parent: Job? = null): Deferred<T> = DeferredImpl(parent)

        /**
         * Creates an already completed deferred.
         */
        @Suppress("FunctionName")
        public fun <T> completed(value: T): Deferred<T> = DeferredImpl<T>(null)

        /** The one implementation. */
        @Suppress("UNCHECKED_CAST")
        @Deprecated("internal")
        private class DeferredImpl<T>(parent: Job?) {
            fun await(): T = TODO()
        }
        """
    assert _symbols(source, "kotlin") == [
        ("deferred", "function", 1, 1, None, ""),
        ("completed", "function", 7, 7, None, "Creates an already completed deferred."),
        ("DeferredImpl", "class", 12, 14, None, "The one implementation."),
        ("await", "method", 13, 13, "DeferredImpl", ""),
    ]


def test_scala_package_object_is_an_object_owning_its_members() -> None:
    """`package object symtab { ... }` (the Scala compiler has 16) was no symbol: its vals were lost and its defs
    were functions of nothing."""
    source = """\
        package scala.tools.nsc

        /** Symbol tables shared by the compiler. */
        package object symtab {
          val Flags = scala.reflect.internal.Flags
          def helper(x: Int) = x
        }
        """
    assert _symbols(source, "scala") == [
        ("symtab", "object", 4, 7, None, "Symbol tables shared by the compiler."),
        ("Flags", "constant", 5, 5, "symtab", ""),
        ("helper", "method", 6, 6, "symtab", ""),
    ]


# ----------------------------------------------------------------------------------- other languages


@pytest.mark.parametrize(
    ("lang", "source", "expected"),
    [
        ("bash", b"# Greet.\ngreet() {\n  echo hi\n}\nfunction main {\n  greet\n}\n",
         [("greet", "function", 2, "Greet."), ("main", "function", 5, "")]),
        ("lua", b"-- Compute.\nlocal function forecast(city)\n  return fetch(city)\nend\n",
         [("forecast", "function", 2, "Compute.")]),
        ("objc", b"@interface Client : NSObject\n- (void)run;\n@end\n",
         [("Client", "class", 1, ""), ("run", "method", 2, "")]),
        # capacitor's headers: a property is no struct named by its type, an anonymous struct none named by a field.
        ("objc", b"/// The app.\n@interface AppDelegate : NSObject {\n  NSString* _name;\n}\n"
                 b"@property (nonatomic, strong) CDVViewController* viewController;\n@end\n"
                 b"typedef struct { int x; } Point2;\nstruct Size { int w; };\n",
         [("AppDelegate", "class", 2, "The app."), ("Size", "struct", 8, "")]),
        # A category or class extension adds methods to its class and is no second definition of it (capacitor's
        # `CAPBridgeViewController (CDVScreenOrientationDelegate)` header tied with the Swift class).
        ("objc", b"@interface Bridge : NSObject\n- (void)go;\n@end\n@interface Bridge ()\n- (void)hidden;\n@end\n"
                 b"@interface Bridge (Orientation) <Delegate>\n- (void)turn;\n@end\n"
                 b"@implementation View (Orientation)\n- (void)spin { }\n@end\n",
         [("Bridge", "class", 1, ""), ("go", "method", 2, ""), ("hidden", "method", 5, ""), ("turn", "method", 8, ""),
          ("spin", "method", 11, "")]),
        ("dart", b"class Client {\n  String get(String url) => url;\n}\nvoid main() {}\n",
         [("Client", "class", 1, ""), ("get", "method", 2, ""), ("main", "function", 4, "")]),
    ],
)
def test_generic_walk_finds_definitions(lang: str, source: bytes, expected: list[tuple[str, str, int, str]]) -> None:
    result = extract(source, lang)
    assert [(s.name, s.kind, s.line, s.doc) for s in result.symbols] == expected
    assert result.warnings == ()


def test_generic_walk_finds_calls() -> None:
    result = extract(b"local function f()\n  return fetch(1)\nend\n", "lua")
    assert [(r.source, r.name, r.line) for r in result.calls] == [(0, "fetch", 2)]


def test_a_lua_class_made_by_a_class_librarys_call_is_a_class() -> None:
    # Penlight's `class()` (and `pl.class()`), middleclass's `class('Point')`: the class a module is built around,
    # and one assigned onto it, whose methods are defined onto them; any other call's value is no definition
    source = (b"local class = require 'pl.class'\nlocal Date = class()\nDate.Format = class()\n"
              b"local Point = pl.class('Point')\nlocal cache = make_cache()\n"
              b"function Date:toUTC() return self end\nfunction Date.Format:_init(fmt) self.fmt = fmt end\n")
    result = extract(source, "lua")
    symbols = [(s.name, s.kind, s.line) for s in result.symbols]
    assert symbols[:2] == [("Date", "class", 2), ("Format", "method", 3)]
    assert ("Point", "class", 4) in symbols and "cache" not in {s.name for s in result.symbols}
    methods = {s.name: result.symbols[s.parent].name for s in result.symbols if s.parent >= 0}
    assert methods["toUTC"] == "Date"


def test_a_lua_function_written_as_a_tables_field_is_defined_onto_the_table() -> None:
    # luassert: `local match = { is_matcher = function(object) … end }`: "the repository defines no 'is_matcher'"
    source = (b"local match = {\n  is_matcher = function(object)\n    return type(object) == 'table'\n  end,\n"
              b"  limit = 3,\n}\nlocal mt = { __index = function(self, key) return rawget(self, key) end }\n"
              b"return setmetatable(match, mt)\n")
    result = extract(source, "lua")
    symbols = {s.name: s for s in result.symbols}
    assert "limit" not in symbols and {"is_matcher", "__index"} <= symbols.keys()
    assert result.symbols[symbols["is_matcher"].parent].name == "match" and symbols["is_matcher"].line == 2
    assert result.symbols[symbols["__index"].parent].name == "mt"


def test_generic_main_is_an_entry_point() -> None:
    result = extract(b"void main() {\n  print('hi');\n}\n", "dart")
    assert [(s.name, s.entry) for s in result.symbols] == [("main", True)]


@pytest.mark.parametrize("lang", ["markdown", "json", "yaml", "toml", "html", "css"])
def test_data_languages_yield_nothing_and_no_warning(lang: str) -> None:
    assert extract(b"# Title\n\n{\"a\": [1, 2]}\n", lang) == FileExtract(lang=lang)


def test_unknown_language_warns_instead_of_raising() -> None:
    result = extract(b"whatever", "klingon")
    assert result.symbols == ()
    assert result.warnings == ("unsupported language 'klingon'",)


# ---------------------------------------------------------------------------------------- robustness


@pytest.mark.parametrize("lang", sorted(QUERY_FILES))
def test_empty_file_is_empty_extract(lang: str) -> None:
    assert extract(b"", lang) == FileExtract(lang=lang)


def test_invalid_utf8_degrades_with_a_warning() -> None:
    result = extract(b"def f\xff():\n    '''doc \xc3'''\n    g\xe9()\n", "python")
    assert result.symbols[0].name == "f"
    assert result.warnings[0] == "not valid UTF-8: names decoded with replacement characters"


def test_nul_bytes_do_not_stop_extraction() -> None:
    result = extract(b"package main\n\x00\nfunc main() {}\n", "go")
    assert [s.name for s in result.symbols] == ["main"]
    assert any(w.startswith("parse errors in") for w in result.warnings)


@pytest.mark.parametrize("lang", sorted(QUERY_FILES))
def test_deep_nesting_does_not_crash(lang: str) -> None:
    data = b"{[(" * 3_400  # 10,200 unclosed levels
    result = extract(data, lang)
    assert result.lang == lang
    assert not any(w.startswith("extraction failed") for w in result.warnings)


def test_ten_thousand_nested_brackets_parse_cleanly() -> None:
    data = b"x = " + b"(" * 10_000 + b"1" + b")" * 10_000 + b"\n"
    assert extract(data, "python").warnings == ()


def test_deeply_nested_functions_attach_calls_to_the_innermost() -> None:
    depth = 2_000
    source = "".join(f"function f{i}() {{ " for i in range(depth)) + "leaf(); " + "} g(); " * depth
    result = extract(source.encode(), "javascript")
    assert len(result.symbols) == depth
    assert result.symbols[-1].parent == depth - 2
    leaf = next(r for r in result.calls if r.name == "leaf")
    assert leaf.source == depth - 1
    # The g() after f{i+1} closes belongs to f{i}; the one after f0 closes is at file level.
    assert sorted(r.source for r in result.calls if r.name == "g") == [-1, *range(depth - 1)]


def test_huge_line_bounds_signature() -> None:
    # ordinary lines after it, or the file would be minified (parsing/limits.py) and skipped whole
    data = b"def f(" + b"a, " * 100_000 + b"z): pass\n" + b"x = 1\n" * 100
    symbol = extract(data, "python").symbols[0]
    assert symbol.name == "f"
    assert len(symbol.signature) == 200


def test_symbol_cap_warns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(symbol_stage, "MAX_SYMBOLS", 3)
    monkeypatch.setattr(references, "MAX_REFS", 2)
    data = b"".join(b"def f%d():\n    g()\n    h()\n" % i for i in range(5))
    result = extract(data, "python")
    assert [s.name for s in result.symbols] == ["f0", "f1", "f2"]
    assert len(result.calls) == 2
    assert "symbols capped at 3" in result.warnings
    assert "call references capped at 2" in result.warnings


def test_extract_is_deterministic() -> None:
    for case in CASES:
        assert _run(case) == _run(case)


_LANGS_FOR_FUZZ = ["python", "javascript", "tsx", "go", "rust", "cpp", "ruby", "php", "swift", "bash", "markdown",
                   "elixir", "haskell", "lua"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.one_of(
        st.binary(max_size=2_000),
        st.text(alphabet="(){}[]<>;:,.'\"#/*\\\n\t abcdefxyz_=-+!@$`0123456789", max_size=2_000).map(str.encode),
    ),
    lang=st.sampled_from(_LANGS_FOR_FUZZ),
)
def test_extract_never_raises_and_keeps_invariants(data: bytes, lang: str) -> None:
    result = extract(data, lang)
    assert result.lang == lang
    assert all(not w.startswith("extraction failed") for w in result.warnings)
    count = len(result.symbols)
    starts = [s.line for s in result.symbols]
    assert starts == sorted(starts)
    for symbol in result.symbols:
        assert symbol.kind in SYMBOL_KINDS
        assert 1 <= symbol.line <= symbol.end_line
        assert -1 <= symbol.parent < count
        assert len(symbol.signature) <= 200 and len(symbol.doc) <= 300
        parent, steps = symbol.parent, 0
        while parent >= 0:  # parents never form a cycle
            parent, steps = result.symbols[parent].parent, steps + 1
            assert steps <= count
    for ref in result.calls + result.imports + result.references:
        assert -1 <= ref.source < count and ref.line >= 1 and ref.name


# ------------------------------------------------------------------------------------ language_for_path


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("src/app.py", "python"), ("typings/x.pyi", "python"), ("a/b.MJS", "javascript"),
        ("x.cjs", "javascript"), ("ui/App.jsx", "javascript"), ("x.ts", "typescript"), ("x.mts", "typescript"),
        ("ui/App.tsx", "tsx"), ("main.go", "go"), ("lib.rs", "rust"), ("A.java", "java"), ("b.kts", "kotlin"),
        ("c.sc", "scala"), ("d.h", "c"), ("e.hpp", "cpp"), ("f.cc", "cpp"), ("g.cs", "csharp"), ("h.rb", "ruby"),
        ("i.php", "php"), ("j.swift", "swift"), ("run.sh", "bash"), ("docs/README.md", "markdown"),
        ("Makefile", "make"), ("sub/Dockerfile", "dockerfile"), ("Dockerfile.dev", "dockerfile"),
        ("conf.yml", "yaml"), ("Cargo.toml", "toml"), ("a.json", "json"), ("x.sql", "sql"), ("index.rst", "rst"),
        ("weird dir/ünïcödé name.py", "python"), ("a.b.c/file.ex", "elixir"), ("Gemfile", "ruby"),
        ("src/jansson_config.h.in", "c"), ("Makefile.in", "make"), ("setup.py.in", "python"),
    ],
)
def test_language_for_path_maps_known_files(path: str, lang: str) -> None:
    assert language_for_path(path) == lang


@pytest.mark.parametrize(
    ("lang", "head", "expected"),
    [
        (None, b"#!/bin/sh\necho", "bash"), (None, b"#!/usr/bin/env python3.11\n", "python"),
        (None, b"#!/usr/bin/env -S node --no-warnings\n", "javascript"), (None, b"\xef\xbb\xbf#!/usr/bin/perl -w\n", "perl"),
        (None, b"# ssh(1) completion        -*- shell-script -*-\n", "bash"),
        (None, b"# -*- coding: utf-8; mode: python -*-\n", "python"), (None, b"x=1\n\n# ex: filetype=sh\n", "bash"),
        (None, b"# vim: set ft=ruby:\n", "ruby"), (None, b"#!\n", None), (None, b"#!/usr/bin/frobnicate\n", None),
        (None, b"# -*- coding: utf-8 -*-\n", None), (None, b"Some notes -*- about things\n", None), (None, b"", None),
        ("c", b"#import <Foundation/Foundation.h>\n", "objc"), ("c", b"@protocol EXModule\n@end\n", "objc"),
        ("c", b"namespace a {\n}\n", "cpp"), ("c", b"  class Engine : public Base {\n", "cpp"),
        ("c", b"template <typename T>\nT max(T a);\n", "cpp"), ("c", b"struct s { int a; };\n", "c"),
        ("c", b"/* a class of errors */\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n", "c"),
        ("c", b"#import <unordered_map>\nnamespace expo {\n}\n", "cpp"),
        ("c", b"#import <UIKit/UIKit.h>\nnamespace x {}\n@interface A : B\n@end\n", "objc"),
        ("python", b"#!/bin/sh\n", "python"), ("cpp", b"@interface X\n", "cpp"),
    ],
)
def test_language_for_content_reads_interpreter_lines_mode_lines_and_header_syntax(
    lang: str | None, head: bytes, expected: str | None
) -> None:
    assert language_for_content(lang, head) == expected


_HEADER_LINES = [b"@interface A", b"  @end", b"#import <x>", b"# import y", b"namespace n {", b"\ttemplate <class T>",
                 b"class Engine", b"public:", b"std::x", b"using T = int;", b"using namespace std;", b"#include <string>",
                 b"#include <linux/types.h>", b"int f(void);", b"/* class of @interface */", b"a::b(", b"", b" x @end"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_HEADER_LINES), max_size=6), st.sampled_from([b"\n", b"\r\n", b" "]))
def test_language_for_content_one_pass_agrees_with_each_marker(lines: list[bytes], separator: bytes) -> None:
    """The one-pass check for a plain C file (any marker after a newline) says C exactly when no marker does."""
    from gitroute.parsing import languages

    head = separator.join(lines)
    expected = ("objc" if languages._OBJC_MARKERS.search(head) else
                "cpp" if languages._CPP_MARKERS.search(head) or languages._CPP_QUALIFIED.search(head) else
                "objc" if languages._OBJC_IMPORT.search(head) else "c")
    assert language_for_content("c", head) == expected


@pytest.mark.parametrize("path", ["LICENSE", "notes.txt", ".env", "bin/", "a.unknownext", "", "x.", ".py", ".in",
                                  "notes.txt.in", "x.in.in.in"])
def test_language_for_path_returns_none_for_unknown(path: str) -> None:
    assert language_for_path(path) is None


# ------------------------------------------------------------------------------------------ manifests


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        (
            "pyproject.toml",
            '[project.scripts]\ngit-route = "gitroute.cli:main"\n[project.gui-scripts]\nviewer = "app.gui:run"\n',
            [DeclaredEntry("git-route", module="gitroute.cli", function="main"),
             DeclaredEntry("viewer", module="app.gui", function="run")],
        ),
        (
            "tools/pyproject.toml",
            '[tool.poetry.scripts]\nserve = "svc.main:start"\nbare = "svc.cli"\n',
            [DeclaredEntry("bare", module="svc.cli"), DeclaredEntry("serve", module="svc.main", function="start")],
        ),
        (
            "setup.cfg",
            "[options.entry_points]\nconsole_scripts =\n    foo = foo.cli:run\n    bar=bar:main [extra]\n",
            [DeclaredEntry("bar", module="bar", function="main"),
             DeclaredEntry("foo", module="foo.cli", function="run")],
        ),
        (
            "web/package.json",
            '{"name": "@acme/weather", "bin": "./bin/cli.js"}',
            [DeclaredEntry("@acme/weather"), DeclaredEntry("weather", path="web/bin/cli.js")],
        ),
        (
            "package.json",
            '{"bin": {"wx": "bin/wx.js", "evil": "../../etc/passwd", "up": "./lib/../bin/up.js"}}',
            [DeclaredEntry("up", path="bin/up.js"), DeclaredEntry("wx", path="bin/wx.js")],
        ),
        (
            "crates/tool/Cargo.toml",
            '[package]\nname = "tool"\n[[bin]]\nname = "wx"\npath = "src/wx.rs"\n[[bin]]\nname = "nopath"\n',
            [DeclaredEntry("wx", path="crates/tool/src/wx.rs")],
        ),
        ("package.json", '{"main": "index.js"}', []),  # no package name to declare it under
        (
            "pkg/package.json",
            '{"name": "@acme/wx", "main": "./lib/index.js", "bin": "cli.js"}',
            [DeclaredEntry("@acme/wx"), DeclaredEntry("@acme/wx", path="pkg/lib/index.js"),
             DeclaredEntry("wx", path="pkg/cli.js")],
        ),
        # No implied index.js: the package's name alone (what `require('express')` names)
        ("package.json", '{"name": "express", "version": "4.21.2"}', [DeclaredEntry("express")]),
        (
            "package.json",
            '{"name": "zod", "main": "./index.cjs", "exports": {"./package.json": "./package.json",'
            ' ".": {"@zod/source": "./src/index.ts", "types": "./index.d.cts", "import": "./index.js",'
            ' "require": "./index.cjs"}, "./mini": {"import": "./mini/index.js"}}}',
            [DeclaredEntry("zod"), DeclaredEntry("zod", path="index.cjs"), DeclaredEntry("zod", path="index.js")],
        ),
        ("package.json", '{"name": "a", "exports": "./a.js"}', [DeclaredEntry("a"), DeclaredEntry("a", path="a.js")]),
        ("package.json", '{"name": "a", "exports": {".": "./a.mjs"}}',
         [DeclaredEntry("a"), DeclaredEntry("a", path="a.mjs")]),
        (
            "package.json",
            '{"name": "a", "exports": {"import": {"types": "./a.d.ts", "default": "./esm/a.js"},'
            ' "default": "./a.js", "node": "./node.js"}}',
            [DeclaredEntry("a"), DeclaredEntry("a", path="a.js"), DeclaredEntry("a", path="esm/a.js")],
        ),
        ("package.json", '{"name": "a", "main": "../outside.js", "exports": ["./x.js"]}', [DeclaredEntry("a")]),
    ],
)
def test_declared_entry_points_reads_manifests(path: str, text: str, expected: list[DeclaredEntry]) -> None:
    assert declared_entry_points(path, text.encode()) == expected


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("pyproject.toml", b"[project.scripts\n= broken"),
        ("pyproject.toml", b'[project]\nscripts = "not a table"\n'),
        ("setup.cfg", b"no section header\n"),
        ("package.json", b"{not json"),
        ("package.json", b"[1, 2]"),
        ("package.json", b'{"bin": 42}'),
        ("package.json", b'{"name": 7, "main": "a.js", "exports": {".": {"import": null}}}'),
        ("Cargo.toml", b"\xff\xfe\x00"),
        ("Cargo.toml", b'bin = "x"\n'),
        ("README.md", b"[project.scripts]\nx = 'a:b'\n"),
    ],
)
def test_declared_entry_points_never_raises_on_malformed_input(path: str, data: bytes) -> None:
    assert declared_entry_points(path, data) == []


def test_importing_parsing_does_not_import_tree_sitter() -> None:
    code = "import sys, gitroute.parsing; print('tree_sitter' in sys.modules)"
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    assert done.stdout.strip() == "False"


def test_python_docstring_after_a_comment_is_still_the_docstring() -> None:
    source = b'class A:\n    # internal note\n    """The A."""\n'
    assert extract(source, "python").symbols[0].doc == "The A."


def test_block_and_line_comments_are_cleaned() -> None:
    source = b"/**\n * Parse the thing.\n *\n * @param x input\n */\n// More.\nint parse(int x);\n"
    assert extract(source, "c").symbols[0].doc == "Parse the thing. @param x input More."


def test_extraction_keeps_no_parsed_tree_alive():
    """tree-sitter 0.26.1 keeps every match's captures, and through them the parsed tree, alive when `matches` is
    given a predicate callback (kernel/sched/core.c: 4.7 MiB a run); `#parent-type?` is applied in Python instead."""
    import tracemalloc

    from gitroute.parsing.tags import extract

    src = ("#if X\nstatic const int LIMIT = 4;\n#endif\nint f(void) {\n  const int local = 2;\n  return g(local);\n}\n"
           + "".join(f"int f{i}(int a) {{ return g(a) + {i}; }}\n" for i in range(200))).encode()
    extract(src, "c")  # (what `#parent-type?` keeps: test_file_level_constants_under_every_parent_the_query_names)
    tracemalloc.start()
    try:
        extract(src, "c")
        base = tracemalloc.get_traced_memory()[0]
        for _ in range(20):
            extract(src, "c")
        grown = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    assert grown < 1_000_000, grown  # with the callback: 8.6 MB


_BROKEN_PIECES = {
    "c": [b"int f(void) {", b"return 1; }", b"#define X(a) a {", b"struct s { int a; ;", b"}}", b"int g(int x) { x++; }",
          b"static DEFINE_MUTEX(lock);", b"((", b"void h(void) { if (x { } }"],
    "python": [b"def f(:", b"    return 1", b"class A:", b"  x = (", b"pass", b")", b"def g():\n    return 2"],
    "javascript": [b"function f( {", b"}", b"const x = {a: 1,,};", b"class A { m() { return 1 }", b"let y = [1, 2"],
}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(_BROKEN_PIECES)), st.data())
def test_error_regions_counted_by_the_walk_are_the_error_query_s(lang: str, data: st.DataObject) -> None:
    """The outermost-ERROR walk counts the stretches an `(ERROR)` query over the whole tree finds, merged."""
    from tree_sitter import Query, QueryCursor

    from gitroute.parsing.captures import count_error_regions
    from gitroute.parsing.grammars import language, parser

    source = b"\n".join(data.draw(st.lists(st.sampled_from(_BROKEN_PIECES[lang]), min_size=1, max_size=8)))
    root = parser(lang).parse(source).root_node
    if not root.has_error:
        return
    errors = QueryCursor(Query(language(lang), "(ERROR) @error")).captures(root).get("error", [])
    count, reach = 0, -1
    for start, end in sorted((n.start_byte, n.end_byte) for n in errors):
        count += start >= reach
        reach = max(reach, end)
    assert count_error_regions(root) == max(count, 1)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"FMT_BEGIN_NAMESPACE", b"  Q_OBJECT  ", b"A1", b"AB\r", b"int x;", b"", b"\tX_Y_Z",
                                 b"lower", b"ABC def", b"}", b"A"]), max_size=8),
       st.sampled_from([b"\n", b"\r\n"]))
def test_bare_macro_lines_are_those_a_line_start_pattern_finds(lines: list[bytes], newline: bytes) -> None:
    from gitroute.parsing.families.c_family import bare_macro_lines

    data = newline.join(lines)
    at_line_start = re.compile(rb"^[ \t]*[A-Z][A-Z0-9_]*[A-Z0-9][ \t]*\r?$", re.MULTILINE)
    assert bare_macro_lines(data) == [match.span() for match in at_line_start.finditer(data)]
