package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"

	"modernc.org/sqlite"
)

// readOnlyConnector opens connections whose authorizer lets statements read
// and nothing else, on top of mode=ro and query_only: ATTACH (which creates
// files), temp tables and pragma assignments are refused at compile time.
type readOnlyConnector struct{ driver.Connector }

func (c readOnlyConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	reg, ok := conn.(sqlite.AuthorizerRegisterer)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("sqlite driver has no authorizer")
	}
	if err := reg.RegisterAuthorizer(authorizeRead); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// readPragmas take an argument but only report.
var readPragmas = map[string]bool{
	"table_info": true, "table_xinfo": true, "table_list": true, "index_list": true,
	"index_info": true, "index_xinfo": true, "foreign_key_list": true,
	"foreign_key_check": true, "integrity_check": true, "quick_check": true,
}

func authorizeRead(action sqlite.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite.AuthorizerReturnCode {
	switch action {
	case sqlite.AuthSelect, sqlite.AuthRead, sqlite.AuthFunction, sqlite.AuthRecursive:
		return sqlite.AuthorizerOK
	case sqlite.AuthTransaction:
		// A transaction lets two reads share one snapshot
		// (db.CheckOutcomes); the connection is opened mode=ro, so no
		// transaction on it can write.
		if arg1 == "COMMIT" || arg1 == "ROLLBACK" || arg1 == "BEGIN" {
			return sqlite.AuthorizerOK
		}
	case sqlite.AuthPragma:
		if arg2 == "" || readPragmas[strings.ToLower(arg1)] {
			return sqlite.AuthorizerOK
		}
	}
	return sqlite.AuthorizerDeny
}

func openReadOnlyPool(dsn string) (*sql.DB, error) {
	base, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(readOnlyConnector{base}), nil
}
