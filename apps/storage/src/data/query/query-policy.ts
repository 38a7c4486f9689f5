/**
 * What a data query may contain. Everything here is an allowlist: a node type, function, type or
 * operator form not listed is refused, so a construct PostgreSQL adds later is refused until
 * someone decides it is harmless.
 */

/** Expression and clause nodes of a plain SELECT. Statements other than SelectStmt are refused. */
export const ALLOWED_NODES = new Set([
  'SelectStmt', 'ResTarget', 'ColumnRef', 'A_Star', 'String', 'Integer', 'Float', 'Boolean', 'BitString', 'A_Const',
  'A_Expr', 'BoolExpr', 'NullTest', 'BooleanTest', 'FuncCall', 'TypeCast', 'TypeName', 'SortBy', 'GroupingSet', 'GroupingFunc',
  'RangeVar', 'RangeSubselect', 'RangeFunction', 'JoinExpr', 'Alias', 'CommonTableExpr', 'CTESearchClause', 'CTECycleClause',
  'CaseExpr', 'CaseWhen', 'CoalesceExpr', 'MinMaxExpr', 'SubLink', 'WindowDef', 'A_Indirection', 'A_Indices',
  'A_ArrayExpr', 'RowExpr', 'ParamRef', 'SQLValueFunction', 'CollateClause', 'List',
]);

/** Readable names for what is refused, so the message says what the client wrote. */
export const NODE_LABELS: Readonly<Record<string, string>> = {
  InsertStmt: 'INSERT', UpdateStmt: 'UPDATE', DeleteStmt: 'DELETE', MergeStmt: 'MERGE', CopyStmt: 'COPY',
  VariableSetStmt: 'SET', VariableShowStmt: 'SHOW', ExplainStmt: 'EXPLAIN', TransactionStmt: 'a transaction statement',
  CreateStmt: 'CREATE TABLE', CreateTableAsStmt: 'CREATE TABLE AS', DropStmt: 'DROP', TruncateStmt: 'TRUNCATE',
  AlterTableStmt: 'ALTER TABLE', GrantStmt: 'GRANT', GrantRoleStmt: 'GRANT', DoStmt: 'DO', CallStmt: 'CALL',
  PrepareStmt: 'PREPARE', ExecuteStmt: 'EXECUTE', DeclareCursorStmt: 'DECLARE', FetchStmt: 'FETCH', LockStmt: 'LOCK',
  ListenStmt: 'LISTEN', NotifyStmt: 'NOTIFY', VacuumStmt: 'VACUUM', CreateFunctionStmt: 'CREATE FUNCTION',
  ViewStmt: 'CREATE VIEW', IndexStmt: 'CREATE INDEX', RuleStmt: 'CREATE RULE', LoadStmt: 'LOAD', DiscardStmt: 'DISCARD',
  CheckPointStmt: 'CHECKPOINT', ReindexStmt: 'REINDEX', ClusterStmt: 'CLUSTER', CreateRoleStmt: 'CREATE ROLE',
  AlterRoleStmt: 'ALTER ROLE', CreateSchemaStmt: 'CREATE SCHEMA', CreateExtensionStmt: 'CREATE EXTENSION',
  RangeTableSample: 'TABLESAMPLE', RangeTableFunc: 'XMLTABLE', JsonTable: 'JSON_TABLE', XmlExpr: 'XML functions',
  XmlSerialize: 'XMLSERIALIZE', ColumnDef: 'a column definition list', IntoClause: 'SELECT … INTO',
  LockingClause: 'FOR UPDATE/SHARE', CurrentOfExpr: 'WHERE CURRENT OF', SetToDefault: 'DEFAULT',
  MultiAssignRef: 'multiple assignment', JsonObjectConstructor: 'JSON_OBJECT', JsonArrayConstructor: 'JSON_ARRAY',
  JsonArrayQueryConstructor: 'JSON_ARRAY', JsonObjectAgg: 'JSON_OBJECTAGG', JsonArrayAgg: 'JSON_ARRAYAGG',
  JsonParseExpr: 'JSON()', JsonScalarExpr: 'JSON_SCALAR()', JsonSerializeExpr: 'JSON_SERIALIZE()', JsonFuncExpr: 'SQL/JSON query functions',
  JsonIsPredicate: 'IS JSON', MergeWhenClause: 'MERGE',
};

/**
 * Plain scalar, aggregate and window functions. Nothing that reads settings, catalogs, files,
 * locks, sequences, transaction ids, the session or other databases, sleeps, or writes.
 */
export const ALLOWED_FUNCTIONS = new Set([
  // aggregates
  'count', 'sum', 'avg', 'min', 'max', 'bool_and', 'bool_or', 'every', 'string_agg', 'array_agg', 'json_agg', 'jsonb_agg',
  'json_object_agg', 'jsonb_object_agg', 'stddev', 'stddev_pop', 'stddev_samp', 'variance', 'var_pop', 'var_samp',
  'percentile_cont', 'percentile_disc', 'mode', 'corr', 'covar_pop', 'covar_samp', 'regr_slope', 'regr_intercept',
  'regr_count', 'regr_r2', 'regr_avgx', 'regr_avgy', 'bit_and', 'bit_or', 'any_value',
  // window
  'row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead', 'first_value', 'last_value', 'nth_value',
  // math
  'abs', 'ceil', 'ceiling', 'floor', 'round', 'trunc', 'sign', 'sqrt', 'cbrt', 'power', 'pow', 'exp', 'ln', 'log', 'log10',
  'mod', 'div', 'pi', 'degrees', 'radians', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'atan2', 'width_bucket', 'random',
  'gcd', 'lcm', 'scale', 'factorial',
  // text
  'lower', 'upper', 'length', 'char_length', 'character_length', 'octet_length', 'bit_length', 'substr', 'substring',
  'position', 'strpos', 'btrim', 'ltrim', 'rtrim', 'trim', 'lpad', 'rpad', 'replace', 'concat', 'concat_ws', 'left', 'right',
  'reverse', 'split_part', 'initcap', 'starts_with', 'format', 'regexp_replace', 'regexp_match', 'regexp_matches',
  'regexp_like', 'regexp_count', 'regexp_split_to_array', 'regexp_split_to_table', 'translate', 'md5', 'ascii', 'chr',
  'overlay', 'string_to_array', 'array_to_string', 'to_char', 'to_number', 'to_date', 'to_timestamp', 'quote_literal',
  'normalize', 'is_normalized', 'encode', 'decode', 'sha256', 'unistr',
  // date and time
  'now', 'date_trunc', 'date_part', 'extract', 'age', 'make_date', 'make_time', 'make_timestamp', 'make_timestamptz',
  'make_interval', 'date_bin', 'justify_days', 'justify_hours', 'justify_interval', 'isfinite', 'timezone',
  'clock_timestamp', 'statement_timestamp', 'transaction_timestamp', 'overlaps',
  // json
  'to_json', 'to_jsonb', 'row_to_json', 'array_to_json', 'json_build_object', 'jsonb_build_object', 'json_build_array',
  'jsonb_build_array', 'json_object', 'jsonb_object', 'json_extract_path', 'json_extract_path_text', 'jsonb_extract_path',
  'jsonb_extract_path_text', 'json_array_length', 'jsonb_array_length', 'json_typeof', 'jsonb_typeof', 'json_array_elements',
  'jsonb_array_elements', 'json_array_elements_text', 'jsonb_array_elements_text', 'json_each', 'jsonb_each', 'json_each_text',
  'jsonb_each_text', 'json_object_keys', 'jsonb_object_keys', 'json_strip_nulls', 'jsonb_strip_nulls', 'jsonb_set',
  'jsonb_set_lax', 'jsonb_insert', 'jsonb_pretty', 'jsonb_path_exists', 'jsonb_path_match', 'jsonb_path_query',
  'jsonb_path_query_array', 'jsonb_path_query_first', 'jsonb_concat',
  // arrays, series, misc
  'array_length', 'array_lower', 'array_upper', 'cardinality', 'unnest', 'array_position', 'array_positions',
  'array_append', 'array_prepend', 'array_cat', 'array_remove', 'array_replace', 'array_ndims', 'array_dims', 'trim_array',
  'generate_series', 'generate_subscripts', 'coalesce', 'nullif', 'greatest', 'least', 'gen_random_uuid', 'num_nulls', 'num_nonnulls',
]);

/**
 * The parser spells some SQL-standard syntax as calls into pg_catalog (`EXTRACT(…)`,
 * `SUBSTRING(… FROM …)`, `x LIKE y ESCAPE z`, `SIMILAR TO`): those are the only qualified names
 * accepted, and only for the functions listed here or above.
 */
export const PARSER_GENERATED_FUNCTIONS = new Set(['like_escape', 'similar_to_escape']);

/** Casts to data types; not to reg* types (they read catalogs), oid, xid, pg_lsn and the like. */
export const ALLOWED_TYPES = new Set([
  'text', 'varchar', 'bpchar', 'char', 'character', 'int2', 'int4', 'int8', 'int', 'integer', 'smallint', 'bigint', 'numeric',
  'decimal', 'float4', 'float8', 'real', 'float', 'bool', 'boolean', 'date', 'time', 'timetz', 'timestamp', 'timestamptz',
  'interval', 'json', 'jsonb', 'jsonpath', 'uuid', 'bytea',
]);

/** CURRENT_DATE and friends; not CURRENT_USER, SESSION_USER, CURRENT_ROLE, CURRENT_CATALOG, CURRENT_SCHEMA. */
export const ALLOWED_SQL_VALUE_FUNCTIONS = new Set([
  'SVFOP_CURRENT_DATE', 'SVFOP_CURRENT_TIME', 'SVFOP_CURRENT_TIME_N', 'SVFOP_CURRENT_TIMESTAMP', 'SVFOP_CURRENT_TIMESTAMP_N',
  'SVFOP_LOCALTIME', 'SVFOP_LOCALTIME_N', 'SVFOP_LOCALTIMESTAMP', 'SVFOP_LOCALTIMESTAMP_N',
]);
