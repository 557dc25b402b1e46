import { Badge, Box, Card, HStack, Heading, Skeleton, Stack, Table, Tabs, Text } from '@chakra-ui/react';
import { useServices } from '../../../app/services';
import { CodeBlock } from '../../../ui/code-block';
import { LoadErrorCard } from '../../../ui/load-error-card';
import { useOpenApi } from '../hooks/use-openapi';
import { apiBaseUrl, curlExample, fetchExample, schemaToText, type OpenApiDocument, type Operation } from '../openapi';
import { texts } from '../texts';

const methodPalette: Record<string, string> = { GET: 'blue', POST: 'green', PUT: 'orange', PATCH: 'orange', DELETE: 'red' };

/** The Documentation tab: every operation of GET /v1/openapi.json, with curl and JavaScript examples. */
export function DocsTab() {
  const { serverOrigin } = useServices();
  const docs = useOpenApi();
  if (docs.isError) {
    return <LoadErrorCard problem={texts.docsLoadFailed} reason={docs.error.message} actionLabel={texts.retry} onAction={() => void docs.refetch()} />;
  }
  if (!docs.data) {
    return (
      <Stack gap="4" aria-busy="true" aria-label="Loading the API documentation">
        {Array.from({ length: 3 }, (_, index) => (
          <Skeleton key={index} h="40" borderRadius="md" />
        ))}
      </Stack>
    );
  }
  const { doc, operations } = docs.data;
  const baseUrl = apiBaseUrl(serverOrigin, doc);
  return (
    <Stack gap="6">
      {doc.info?.description && <Text color="fg.muted">{doc.info.description}</Text>}
      <Text fontSize="sm" color="fg.muted">
        Errors answer a JSON object with a{' '}
        <Box as="code" fontFamily="mono">
          detail
        </Box>{' '}
        message.
      </Text>
      {operations.map((operation) => (
        <OperationCard key={`${operation.method} ${operation.path}`} doc={doc} operation={operation} baseUrl={baseUrl} />
      ))}
    </Stack>
  );
}

function OperationCard({ doc, operation, baseUrl }: { doc: OpenApiDocument; operation: Operation; baseUrl: string }) {
  const slug = `${operation.method}-${operation.path}`.replace(/[^A-Za-z0-9]+/g, '-');
  return (
    <Card.Root variant="outline" data-testid="api-operation" aria-labelledby={`op-${slug}`}>
      <Card.Body gap="4">
        <Stack gap="1">
          <HStack gap="2" wrap="wrap" id={`op-${slug}`}>
            <Badge colorPalette={methodPalette[operation.method] ?? 'gray'} fontFamily="mono" size="lg">
              {operation.method}
            </Badge>
            <Text as="span" fontFamily="mono" fontWeight="semibold" wordBreak="break-all">
              {operation.path}
            </Text>
          </HStack>
          <Heading as="h2" size="sm">
            {operation.summary}
          </Heading>
          {operation.description && (
            <Text fontSize="sm" color="fg.muted" whiteSpace="pre-line">
              {operation.description}
            </Text>
          )}
          <Text fontSize="sm">
            {operation.auth ? (
              <>
                Authentication: header{' '}
                <Box as="code" fontFamily="mono" fontSize="xs" bg="bg.muted" px="1" borderRadius="sm" wordBreak="break-all">
                  {operation.auth.name}: {operation.auth.value}
                </Box>
              </>
            ) : (
              'No authentication needed.'
            )}
          </Text>
        </Stack>
        {operation.parameters.length > 0 && <ParametersTable operation={operation} />}
        {operation.requestBody && (
          <CodeBlock label="Request body" code={schemaToText(doc, operation.requestBody)} copyLabel={`Copy request body schema of ${operation.method} ${operation.path}`} />
        )}
        <Responses doc={doc} operation={operation} />
        <Examples doc={doc} operation={operation} baseUrl={baseUrl} />
      </Card.Body>
    </Card.Root>
  );
}

function ParametersTable({ operation }: { operation: Operation }) {
  return (
    <Stack gap="2">
      <Heading as="h3" size="xs">
        Parameters
      </Heading>
      <Stack gap="2" fontSize="sm">
        {operation.parameters.map((parameter) => (
          <Box key={`${parameter.location}:${parameter.name}`} borderWidth="1px" borderRadius="md" px="3" py="2">
            <HStack gap="2" wrap="wrap">
              <Text as="span" fontFamily="mono" fontWeight="semibold">
                {parameter.name}
              </Text>
              <Badge size="sm">{parameter.location}</Badge>
              <Text as="span" fontFamily="mono" fontSize="xs" color="fg.muted" wordBreak="break-all">
                {parameter.type}
              </Text>
              {parameter.required && (
                <Badge size="sm" colorPalette="red">
                  required
                </Badge>
              )}
            </HStack>
            {parameter.description && <Text color="fg.muted">{parameter.description}</Text>}
          </Box>
        ))}
      </Stack>
    </Stack>
  );
}

function Responses({ doc, operation }: { doc: OpenApiDocument; operation: Operation }) {
  if (operation.responses.length === 0) return null;
  return (
    <Stack gap="2">
      <Heading as="h3" size="xs">
        Responses
      </Heading>
      <Table.Root size="sm" variant="outline" tableLayout="fixed">
        <Table.Body>
          {operation.responses.map((response) => (
            <Table.Row key={response.status} data-testid={`response-${response.status}`}>
              <Table.Cell w={{ base: '14', md: '20' }} verticalAlign="top" fontFamily="mono" fontWeight="semibold">
                {response.status}
              </Table.Cell>
              <Table.Cell verticalAlign="top">
                <Stack gap="2" minW="0">
                  <Text>{response.description}</Text>
                  {response.headers.length > 0 && (
                    <Stack gap="1" fontSize="xs">
                      {response.headers.map((header) => (
                        <Text key={header.name} wordBreak="break-word">
                          <Box as="code" fontFamily="mono" bg="bg.muted" px="1" borderRadius="sm">
                            {header.name}
                          </Box>{' '}
                          {header.description}
                        </Text>
                      ))}
                    </Stack>
                  )}
                  {response.schema && response.status.startsWith('2') && (
                    <CodeBlock code={schemaToText(doc, response.schema)} copyLabel={`Copy the ${response.status} response schema`} />
                  )}
                </Stack>
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Stack>
  );
}

function Examples({ doc, operation, baseUrl }: { doc: OpenApiDocument; operation: Operation; baseUrl: string }) {
  return (
    <Tabs.Root defaultValue="curl" size="sm" variant="line" lazyMount>
      <Tabs.List>
        <Tabs.Trigger value="curl">curl</Tabs.Trigger>
        <Tabs.Trigger value="js">JavaScript</Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="curl">
        <CodeBlock code={curlExample(doc, operation, baseUrl)} copyLabel={`Copy curl example of ${operation.method} ${operation.path}`} testId="curl-example" />
      </Tabs.Content>
      <Tabs.Content value="js">
        <CodeBlock code={fetchExample(doc, operation, baseUrl)} copyLabel={`Copy JavaScript example of ${operation.method} ${operation.path}`} testId="fetch-example" />
      </Tabs.Content>
    </Tabs.Root>
  );
}
