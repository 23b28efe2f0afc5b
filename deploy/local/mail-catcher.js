// A local mail catcher for development and tests: a real SMTP server that keeps what it receives and
// shows it over HTTP (GET /messages[?to=addr] → JSON, newest last; DELETE /messages clears).
//   node deploy/local/mail-catcher.js        SMTP on MAIL_SMTP_PORT (1025), HTTP on MAIL_HTTP_PORT (1080)
const http = require('node:http');
const { SMTPServer } = require('smtp-server');
const { simpleParser } = require('mailparser');

async function startMailCatcher({ host = '127.0.0.1', smtpPort = 1025, httpPort = 1080 } = {}) {
  const messages = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      simpleParser(stream).then(
        (mail) => {
          const text = mail.text ?? '';
          messages.push({
            id: messages.length + 1,
            to: (mail.to && !Array.isArray(mail.to) ? mail.to.value : []).map((a) => a.address),
            subject: mail.subject ?? '',
            text,
            html: typeof mail.html === 'string' ? mail.html : '',
            links: text.match(/https?:\/\/\S+/g) ?? [],
            date: new Date().toISOString(),
          });
          done();
        },
        (err) => done(err),
      );
    },
  });
  await new Promise((resolve) => smtp.listen(smtpPort, host, resolve));

  const web = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://catcher');
    if (url.pathname !== '/messages') {
      res.writeHead(404).end();
      return;
    }
    if (req.method === 'DELETE') messages.length = 0;
    const to = url.searchParams.get('to')?.toLowerCase();
    const list = to ? messages.filter((m) => m.to.some((a) => a.toLowerCase() === to)) : messages;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(list));
  });
  await new Promise((resolve) => web.listen(httpPort, host, resolve));

  return {
    messages,
    smtpUrl: `smtp://${host}:${smtp.server.address().port}`,
    httpUrl: `http://${host}:${web.address().port}`,
    close: () => Promise.all([new Promise((r) => smtp.close(r)), new Promise((r) => web.close(r))]),
  };
}

module.exports = { startMailCatcher };

if (require.main === module) {
  startMailCatcher({
    smtpPort: Number(process.env.MAIL_SMTP_PORT ?? 1025),
    httpPort: Number(process.env.MAIL_HTTP_PORT ?? 1080),
  }).then((c) => console.log(`mail catcher: ${c.smtpUrl}, messages at ${c.httpUrl}/messages`));
}
