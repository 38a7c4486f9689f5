/**
 * Documents and questions written for the retrieval test: 20 target documents, each with the
 * question it answers (worded differently from the document), and 180 distractors built from the
 * same vocabulary (support, billing, infrastructure, travel, science), so a question's words also
 * appear in many wrong documents. Each question shares at least one content word with its
 * document (the built-in embedding is lexical: it knows no synonyms) and is otherwise reworded.
 */
export interface TargetDocument {
  name: string;
  format: 'markdown' | 'html' | 'pdf';
  title: string;
  body: string[];
  question: string;
}

export const TARGETS: TargetDocument[] = [
  {
    name: 'refund-policy.md',
    format: 'markdown',
    title: 'Refund policy',
    body: [
      'Customers may return a product and receive their money back within thirty days of the purchase date.',
      'After thirty days only store credit is offered. Refunds go back to the original payment card within five business days.',
    ],
    question: 'How long after buying something can a customer get their money back?',
  },
  {
    name: 'password-reset.md',
    format: 'markdown',
    title: 'Resetting a forgotten password',
    body: [
      'Open the sign-in page and choose "Forgot password". A reset link is emailed to the address on the account and stays valid for one hour.',
      'For security the old password stops working as soon as the new one is saved.',
    ],
    question: 'What should I do when I cannot remember my password to sign in?',
  },
  {
    name: 'vpn-setup.html',
    format: 'html',
    title: 'Connecting to the corporate VPN',
    body: [
      'Install the WireGuard client, import the configuration file from the IT portal and activate the tunnel.',
      'The VPN is required to reach the internal wiki and the build servers from home.',
    ],
    question: 'How do I reach the internal wiki when working from home?',
  },
  {
    name: 'expense-claims.md',
    format: 'markdown',
    title: 'Expense claims',
    body: [
      'Submit receipts for travel, meals and equipment in the finance tool before the fifth day of the following month.',
      'Claims above 500 euros need the approval of a department head.',
    ],
    question: 'Who has to approve a large reimbursement request for spending above 500 euros?',
  },
  {
    name: 'backup-schedule.md',
    format: 'markdown',
    title: 'Database backup schedule',
    body: [
      'Full PostgreSQL backups run nightly at 02:00 UTC and are copied to a second region.',
      'Write-ahead log archiving allows point-in-time recovery for the last fourteen days.',
    ],
    question: 'For how many days can we restore the database to an earlier point in time?',
  },
  {
    name: 'parental-leave.html',
    format: 'html',
    title: 'Parental leave',
    body: [
      'Every parent is entitled to sixteen weeks of fully paid leave after the birth or adoption of a child.',
      'Leave can be split into two blocks taken within the first year.',
    ],
    question: 'How many weeks of paid time off do new mothers and fathers get after a baby arrives?',
  },
  {
    name: 'coffee-machine.md',
    format: 'markdown',
    title: 'Descaling the office coffee machine',
    body: [
      'The espresso machine on the third floor must be descaled every two weeks with citric acid tablets.',
      'Run three rinse cycles with fresh water afterwards so the coffee does not taste sour.',
    ],
    question: 'How often does the espresso maker need descaling?',
  },
  {
    name: 'incident-severity.md',
    format: 'markdown',
    title: 'Incident severity levels',
    body: [
      'SEV1 means the whole product is down for all customers; the on-call engineer pages the incident commander within five minutes.',
      'SEV2 is a major feature broken for many users, SEV3 a minor problem with a workaround.',
    ],
    question: 'What happens when the entire service is unavailable to every user?',
  },
  {
    name: 'api-rate-limits.html',
    format: 'html',
    title: 'API rate limits',
    body: [
      'Live keys may send six hundred requests per minute. Above that the API answers 429 with a Retry-After header.',
      'Test keys have twice that allowance because they only touch sandbox data.',
    ],
    question: 'How many calls a minute are allowed with a production key before throttling starts?',
  },
  {
    name: 'onboarding-laptop.md',
    format: 'markdown',
    title: 'Laptop for new hires',
    body: [
      'New employees receive a laptop on their first morning from the IT desk on the ground floor.',
      'Disk encryption and the device management profile are installed before handover.',
    ],
    question: 'Where does a new hire pick up their laptop?',
  },
  {
    name: 'solar-panels.md',
    format: 'markdown',
    title: 'Rooftop solar installation',
    body: [
      'The photovoltaic array on the warehouse roof produces about 180 megawatt hours a year, roughly a third of our electricity use.',
      'Inverters are inspected every spring after the winter storms.',
    ],
    question: 'What share of our power comes from the photovoltaic panels on the roof?',
  },
  {
    name: 'shipping-times.html',
    format: 'html',
    title: 'Shipping times',
    body: [
      'Orders placed before 14:00 leave the warehouse the same day. Delivery within the country takes one to two days.',
      'International parcels take five to ten days and may be held by customs.',
    ],
    question: 'How long does a package take to arrive when sent abroad?',
  },
  {
    name: 'code-review.md',
    format: 'markdown',
    title: 'Code review rules',
    body: [
      'Every pull request needs one approving review from someone who did not write the code, and all checks must be green before merging.',
      'Reviews should be answered within one working day.',
    ],
    question: 'What is needed before a pull request can be merged into the main branch?',
  },
  {
    name: 'meeting-rooms.md',
    format: 'markdown',
    title: 'Booking meeting rooms',
    body: [
      'Rooms are booked in the calendar; a booking not claimed within ten minutes is released automatically.',
      'The large boardroom seats twenty people and has a video conferencing system.',
    ],
    question: 'What happens to a room reservation if nobody shows up?',
  },
  {
    name: 'gdpr-requests.html',
    format: 'html',
    title: 'Personal data requests',
    body: [
      'When a person asks for a copy or deletion of their personal data, the privacy team must answer within one month, as the GDPR requires.',
      'Requests are logged in the privacy register with the date they arrived.',
    ],
    question: 'What is the deadline to respond when someone asks us to erase information about them?',
  },
  {
    name: 'kubernetes-autoscaling.md',
    format: 'markdown',
    title: 'Cluster autoscaling',
    body: [
      'The horizontal pod autoscaler adds replicas when average CPU use stays above seventy percent for three minutes.',
      'Nodes are added by the cluster autoscaler when pods cannot be scheduled.',
    ],
    question: 'At what processor usage are more pod replicas started?',
  },
  {
    name: 'bike-scheme.md',
    format: 'markdown',
    title: 'Bicycle leasing scheme',
    body: [
      'Staff can lease an electric bicycle through salary sacrifice for up to thirty-six months.',
      'Insurance and yearly servicing are included in the monthly rate.',
    ],
    question: 'Can employees get an e-bike paid from their gross salary, and for how long?',
  },
  {
    name: 'fire-drill.md',
    format: 'markdown',
    title: 'Fire evacuation',
    body: [
      'When the alarm sounds, leave by the nearest stairwell, never the lifts, and gather at the assembly point in the north car park.',
      'Floor wardens check that every room is empty.',
    ],
    question: 'Where do we meet outside after leaving the building during an alarm?',
  },
  {
    name: 'invoice-terms.md',
    format: 'markdown',
    title: 'Invoice payment terms',
    body: [
      'Invoices are payable within fourteen days. Late payment adds interest of one percent per month.',
      'Enterprise customers may pay by bank transfer against a purchase order.',
    ],
    question: 'What interest is charged when a bill is paid late?',
  },
  {
    name: 'telescope-manual.pdf',
    format: 'pdf',
    title: 'Observatory telescope manual',
    body: [
      'The observatory refractor must be cooled for forty minutes before observing so the optics reach outside temperature.',
      'Always fit the solar filter before pointing it anywhere near the Sun.',
    ],
    question: 'How long should the optics adjust to the outdoor temperature before stargazing?',
  },
];

const SUBJECTS = ['billing', 'support', 'server', 'travel', 'account', 'office', 'security', 'payment', 'network', 'customer', 'laboratory', 'warehouse'];
const ACTIONS = [
  'review',
  'update',
  'migration',
  'audit',
  'cleanup',
  'rollout',
  'training',
  'survey',
  'upgrade',
  'inventory',
  'forecast',
  'report',
  'rotation',
  'checklist',
  'handover',
];
const DETAILS = [
  'The team meets every Tuesday to discuss open items and blockers.',
  'Questions go to the shared mailbox, which is read twice a day.',
  'The previous version is archived in the document store for one year.',
  'Managers receive a summary at the end of each quarter.',
  'Changes are announced in the company newsletter.',
  'The owner of this process is listed in the staff directory.',
  'A dashboard shows the progress to everyone in the department.',
  'Costs are charged to the cost centre of the requesting team.',
  'Feedback from customers is collected with a short form.',
  'The work is planned in two-week iterations.',
];

/** 180 distractors: `<subject> <action>` notes sharing the targets' everyday vocabulary. */
export function distractors(): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  for (let i = 0; out.length < 180; i++) {
    const subject = SUBJECTS[i % SUBJECTS.length];
    const action = ACTIONS[Math.floor(i / SUBJECTS.length) % ACTIONS.length];
    const details = [0, 3, 7].map((k) => DETAILS[(i + k) % DETAILS.length]);
    out.push({
      name: `${subject}-${action}-${i}.md`,
      text: `# ${subject} ${action} (note ${i})\n\nThis note describes the ${subject} ${action} for the month and the people involved. ${details.join(' ')}\n\nThe ${subject} ${action} is scheduled for week ${(i % 52) + 1}; customers, employees and servers are not affected.`,
    });
  }
  return out;
}

export function markdownOf(t: TargetDocument): string {
  return `# ${t.title}\n\n${t.body.join('\n\n')}\n`;
}

export function htmlOf(t: TargetDocument): string {
  return `<!doctype html><html><head><title>${t.title}</title><style>p{color:red}</style></head><body><nav>Home | Help</nav><h1>${t.title}</h1>${t.body.map((p) => `<p>${p}</p>`).join('')}</body></html>`;
}

/** A one-page PDF with the lines in Helvetica, written by hand (objects, content stream, cross-reference table). */
export function pdfOf(lines: string[]): Buffer {
  const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = `BT /F1 11 Tf 50 780 Td 14 TL ${lines.map((l) => `(${escape(l)}) Tj T*`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** The PDF's lines: the title, then the body wrapped at about 90 characters. */
export function pdfLines(t: TargetDocument): string[] {
  const lines = [t.title, ''];
  for (const paragraph of t.body) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      if ((line + ' ' + word).trim().length > 90) {
        lines.push(line.trim());
        line = '';
      }
      line += ` ${word}`;
    }
    lines.push(line.trim(), '');
  }
  return lines;
}
